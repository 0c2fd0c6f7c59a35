"""The errors of the PyNN backend: PyNN's own classes, with the object, the parameter and the value
named, as volley.InvalidParameter names them."""

from pyNN import errors

import volley


class VolleyNotSupported(NotImplementedError):
    """Something Volley cannot honour; fields object, parameter, value as volley.InvalidParameter."""

    def __init__(self, object, parameter, value, reason):
        super().__init__(f"{object}: {parameter} = {value}: {reason}")
        self.object, self.parameter, self.value = object, parameter, value


def unsupported(object, parameter, value, reason):
    return VolleyNotSupported(object, parameter, value, reason)


class InvalidParameterValue(volley.InvalidParameter, errors.InvalidParameterValueError):
    """A value the backend refuses: both a volley.InvalidParameter (fields object, parameter,
    value) and PyNN's InvalidParameterValueError, so that either kind of caller catches it."""


def invalid(object, parameter, value, reason):
    """An InvalidParameterValue with its fields set, as the engine raises volley.InvalidParameter."""
    e = InvalidParameterValue(f"{object}: {parameter} = {value}: {reason}")
    e.object, e.parameter, e.value = object, parameter, str(value)
    return e
