// The compiled core of the volley Python package: volley._volley (docs/python.md).

#include "bindings.hpp"

#include <volley/config.hpp>

PYBIND11_MODULE(_volley, m) {
    namespace vp = volley::python;
    m.doc() =
        "Volley's C++ core: networks, simulations, recorders, file formats and neuroprocessors.";
    m.attr("__version__") = VOLLEY_VERSION;
    vp::bind_errors(m);
    vp::bind_models(m);
    vp::bind_network(m);
    vp::bind_simulation(m);
    vp::bind_convert(m);
    vp::bind_analysis(m);
    vp::bind_hardware(m);
    vp::bind_tasks(m);
    vp::bind_pipeline(m);
}
