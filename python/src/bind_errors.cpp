// volley.Error and its subclasses: one Python class per C++ error type (volley/error.hpp), with
// the same fields as attributes. Each also derives from the built-in exception a Python
// programmer would catch (ValueError for bad values, OSError for failed I/O, ...).

#include "bindings.hpp"

#include <volley/error.hpp>
#include <volley/hw/tennlab_error.hpp>

#include <initializer_list>
#include <string>
#include <utility>

namespace volley::python {

namespace {

/// The Python classes, created once at import; never freed (they live as long as the module).
struct error_classes {
    PyObject* error = nullptr;
    PyObject* invalid_parameter = nullptr;
    PyObject* file_format_error = nullptr;
    PyObject* io_error = nullptr;
    PyObject* unknown_name = nullptr;
    PyObject* unsupported_model = nullptr;
    PyObject* unroutable_network = nullptr;
    PyObject* internal_error = nullptr;
    PyObject* tennlab_error = nullptr;
};
error_classes classes;

PyObject* make_class(py::module_& m, const char* name, const char* doc,
                     std::initializer_list<PyObject*> bases) {
    py::tuple base_tuple(bases.size());
    std::size_t i = 0;
    for (PyObject* b : bases) base_tuple[i++] = py::handle(b);
    const std::string qualified = std::string("volley.") + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base_tuple.ptr(), nullptr);
    if (!cls) throw py::error_already_set();
    m.add_object(name, py::handle(cls));  // the module holds a reference as well
    return cls;
}

/// Raises `cls(message)` with the given attributes set.
void raise(PyObject* cls, const std::exception& e,
           std::initializer_list<std::pair<const char*, std::string>> fields) {
    py::object instance =
        py::reinterpret_steal<py::object>(PyObject_CallFunction(cls, "s", e.what()));
    if (!instance) return;  // the call itself raised; that error stands
    for (const auto& [name, value] : fields) instance.attr(name) = py::str(value);
    PyErr_SetObject(cls, instance.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
    classes.error =
        make_class(m, "Error", "Base of every error Volley raises on bad input or failed I/O.",
                   {PyExc_RuntimeError});
    classes.invalid_parameter =
        make_class(m, "InvalidParameter",
                   "A parameter is out of range, not finite, or inconsistent with another. Fields: "
                   "object, parameter, value.",
                   {classes.error, PyExc_ValueError});
    classes.file_format_error = make_class(
        m, "FileFormatError", "A file is malformed. Fields: file, location (e.g. a JSON pointer).",
        {classes.error, PyExc_ValueError});
    classes.io_error =
        make_class(m, "IoError", "A file could not be opened, read or written. Field: file.",
                   {classes.error, PyExc_OSError});
    classes.unknown_name = make_class(
        m, "UnknownName", "A reference to something that does not exist. Fields: kind, name.",
        {classes.error, PyExc_LookupError});
    classes.unsupported_model =
        make_class(m, "UnsupportedModel",
                   "A neuron model is unknown or not supported where it is used. Field: model.",
                   {classes.error, PyExc_ValueError});
    classes.unroutable_network =
        make_class(m, "UnroutableNetwork",
                   "A network cannot be placed and routed onto a hardware array. Field: object.",
                   {classes.error});
    classes.internal_error = make_class(
        m, "InternalError", "A bug inside Volley (a broken invariant), never caused by input.",
        {classes.error});

    classes.tennlab_error = make_class(m, "TennlabError",
                                       "A TENNLab network, processor parameter or spike error. "
                                       "Fields: object, reference_message (the text "
                                       "TENNLab's processor_tool prints).",
                                       {classes.error, PyExc_ValueError});

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const invalid_parameter& e) {
            raise(classes.invalid_parameter, e,
                  {{"object", e.object()}, {"parameter", e.parameter()}, {"value", e.value()}});
        } catch (const file_format_error& e) {
            raise(classes.file_format_error, e, {{"file", e.file()}, {"location", e.location()}});
        } catch (const io_error& e) {
            raise(classes.io_error, e, {{"file", e.file()}});
        } catch (const unknown_name& e) {
            raise(classes.unknown_name, e, {{"kind", e.kind()}, {"name", e.name()}});
        } catch (const unsupported_model& e) {
            raise(classes.unsupported_model, e, {{"model", e.model()}});
        } catch (const unroutable_network& e) {
            raise(classes.unroutable_network, e, {{"object", e.object()}});
        } catch (const hw::tennlab_error& e) {
            raise(classes.tennlab_error, e,
                  {{"object", e.object()}, {"reference_message", e.reference_message()}});
        } catch (const internal_error& e) {
            raise(classes.internal_error, e, {});
        } catch (const error& e) {
            raise(classes.error, e, {});
        }
    });
}

}  // namespace volley::python
