"""The errors of the PyNN backend: PyNN's own classes, with the object, the parameter and the value
named, as volley.InvalidParameter names them."""




class VolleyNotSupported(NotImplementedError):
    """Something Volley cannot honour; fields object, parameter, value as volley.InvalidParameter."""

    def __init__(self, object, parameter, value, reason):
        super().__init__(f"{object}: {parameter} = {value}: {reason}")
        self.object, self.parameter, self.value = object, parameter, value


def unsupported(object, parameter, value, reason):
    return VolleyNotSupported(object, parameter, value, reason)
