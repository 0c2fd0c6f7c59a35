// The value types a network is built from: value specs (uniform, normal), neuron models
// (volley.NeuronModel, any model by name with its parameters as keywords), connectors, current
// stimuli and STDP rules. Each keeps the C++ field names and units (docs/python.md).

#include "bindings.hpp"
#include "conversions.hpp"

#include <pybind11/stl.h>

#include <volley/error.hpp>
#include <volley/snn/connectors.hpp>
#include <volley/snn/neuron_models.hpp>
#include <volley/snn/plasticity.hpp>
#include <volley/snn/stimuli.hpp>
#include <volley/snn/value.hpp>

#include <cmath>
#include <limits>
#include <sstream>

namespace volley::python {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// Applies the keyword arguments of NeuronModel(name, **kwargs) to `m`.
void apply_model_keywords(snn::neuron_model& m, const py::kwargs& kwargs) {
    const std::string object = "model '" + snn::model_name(m) + "'";
    for (const auto& [key, value] : kwargs) {
        const auto name = py::cast<std::string>(key);
        if (name == "spike_times_ms") {
            auto* s = std::get_if<snn::spike_source>(&m);
            if (!s)
                throw invalid_parameter(object, name, "(given)",
                                        "only spike_source takes spike_times_ms");
            s->spike_times_ms = py::cast<std::vector<std::vector<double>>>(value);
        } else if (name == "values") {
            auto* a = std::get_if<snn::analog_source>(&m);
            if (!a)
                throw invalid_parameter(object, name, "(given)", "only analog_source takes values");
            a->values = py::cast<std::vector<std::vector<double>>>(value);
        } else if (name == "reset" || name == "method") {
            auto* d = std::get_if<snn::discrete_neuron>(&m);
            if (!d)
                throw invalid_parameter(object, name, py::str(value),
                                        "only discrete_neuron takes " + name);
            const auto word = py::cast<std::string>(value);
            if (name == "reset")
                d->reset = snn::reset_mode_from_name(word, object);
            else
                d->method = snn::integration_from_name(word, object);
        } else if (name == "integrator" || name == "abs_tol" || name == "rel_tol") {
            auto* integrator = snn::model_integrator(m);
            if (!integrator)
                throw unsupported_model(snn::model_name(m),
                                        "not an ODE model: it takes no " + name);
            if (name == "integrator")
                integrator->scheme = snn::scheme_from_name(py::cast<std::string>(value), object);
            else if (name == "abs_tol")
                integrator->abs_tol = py::cast<double>(value);
            else
                integrator->rel_tol = py::cast<double>(value);
        } else {
            snn::set_parameter(m, name, py::cast<double>(value));
        }
    }
}

py::dict parameter_dict(const snn::neuron_model& m) {
    py::dict d;
    for (const auto& info : snn::model_parameters(m))
        d[info.name] = snn::get_parameter(m, info.name);
    if (const auto* integrator = snn::model_integrator(m)) {
        d["integrator"] = snn::scheme_name(integrator->scheme);
        d["abs_tol"] = integrator->abs_tol;
        d["rel_tol"] = integrator->rel_tol;
    }
    if (const auto* dn = std::get_if<snn::discrete_neuron>(&m)) {
        d["reset"] = snn::reset_mode_name(dn->reset);
        d["method"] = snn::integration_name(dn->method);
    }
    return d;
}

}  // namespace

std::vector<py::ssize_t> c_strides(const std::vector<py::ssize_t>& shape, std::size_t item_bytes) {
    std::vector<py::ssize_t> strides(shape.size());
    auto stride = static_cast<py::ssize_t>(item_bytes);
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= shape[i];
    }
    return strides;
}

snn::neuron_model make_model(const std::string& name, const py::kwargs& kwargs) {
    snn::neuron_model m;
    if (kwargs.contains("preset")) {
        const auto preset = py::cast<std::string>(kwargs["preset"]);
        if (name == "izhikevich")
            m = snn::izhikevich::preset(preset);
        else if (name == "adex")
            m = snn::adex::preset(preset);
        else
            throw invalid_parameter("model '" + name + "'", "preset", preset,
                                    "only izhikevich and adex have presets");
        py::kwargs rest;
        for (const auto& [k, v] : kwargs)
            if (py::cast<std::string>(k) != "preset") rest[k] = v;
        apply_model_keywords(m, rest);
    } else {
        m = snn::model_from_name(name);
        apply_model_keywords(m, kwargs);
    }
    snn::validate_model(m, "model '" + name + "'");
    return m;
}

snn::value_spec to_value_spec(const py::handle& v) {
    if (py::isinstance<snn::uniform>(v)) return py::cast<snn::uniform>(v);
    if (py::isinstance<snn::normal>(v)) return py::cast<snn::normal>(v);
    if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v) || PyFloat_Check(v.ptr()) ||
        (py::hasattr(v, "ndim") && py::cast<int>(v.attr("ndim")) == 0))
        return py::cast<double>(v);
    return py::cast<std::vector<double>>(v);
}

py::object from_value_spec(const snn::value_spec& v) {
    return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

void bind_models(py::module_& m) {
    py::class_<snn::uniform>(m, "Uniform",
                             "Uniform distribution on [low, high), drawn per neuron or synapse.")
        .def(py::init<double, double>(), py::arg("low") = 0.0, py::arg("high") = 1.0)
        .def_readwrite("low", &snn::uniform::low)
        .def_readwrite("high", &snn::uniform::high)
        .def("__eq__", [](const snn::uniform& a, const snn::uniform& b) { return a == b; })
        .def("__repr__", [](const snn::uniform& u) {
            return "volley.Uniform(" + py::str(py::float_(u.low)).cast<std::string>() + ", " +
                   py::str(py::float_(u.high)).cast<std::string>() + ")";
        });
    constexpr double inf = std::numeric_limits<double>::infinity();
    py::class_<snn::normal>(m, "Normal",
                            "Normal distribution, drawn per neuron or synapse; a value outside [low, high] "
                            "is drawn again (NEST's nest.math.redraw).")
        .def(py::init<double, double, double, double>(), py::arg("mean") = 0.0, py::arg("stddev") = 1.0,
             py::arg("low") = -inf, py::arg("high") = inf)
        .def_readwrite("mean", &snn::normal::mean)
        .def_readwrite("stddev", &snn::normal::stddev)
        .def_readwrite("low", &snn::normal::low)
        .def_readwrite("high", &snn::normal::high)
        .def("__eq__", [](const snn::normal& a, const snn::normal& b) { return a == b; })
        .def("__repr__", [](const snn::normal& n) {
            auto num = [](double x) { return py::str(py::float_(x)).cast<std::string>(); };
            std::string s = "volley.Normal(" + num(n.mean) + ", " + num(n.stddev);
            if (n.bounded()) s += ", low=" + num(n.low) + ", high=" + num(n.high);
            return s + ")";
        });

    py::class_<model_handle>(m, "NeuronModel", R"doc(
A neuron model and its default parameters, by the model's file name:
lif_delta, lif_exp, lif_alpha, lif_cond_exp, lif_cond_alpha, izhikevich, adex, adex_alpha, hh,
poisson_source, spike_source, discrete_neuron, analog_source.

Keywords are the C++ parameter names with their units (tau_m_ms, v_thresh_mv, i_e_pa, ...);
also spike_times_ms (spike_source: one list per neuron), values (analog_source: [step][neuron]),
reset and method (discrete_neuron), integrator, abs_tol, rel_tol (ODE models), and preset
(izhikevich: RS, IB, CH, FS, LTS; adex: tonic, adapting, bursting, irregular).
An unknown name raises UnknownName, a bad value InvalidParameter.)doc")
        .def(py::init([](const std::string& name, const py::kwargs& kw) {
                 return model_handle{make_model(name, kw)};
             }),
             py::arg("name"))
        .def_property_readonly("name",
                               [](const model_handle& h) { return snn::model_name(h.model); })
        .def_property_readonly(
            "parameters", [](const model_handle& h) { return parameter_dict(h.model); },
            "The scalar parameters (and scheme, reset, ...) as a dict.")
        .def_property_readonly(
            "state_variables",
            [](const model_handle& h) {
                std::vector<std::string> out;
                for (const char* s : snn::model_state_variables(h.model)) out.emplace_back(s);
                return out;
            },
            "The state variables that can be initialised and recorded (v_mv, ...).")
        .def_property_readonly("is_source",
                               [](const model_handle& h) { return snn::is_source_model(h.model); })
        .def("__getitem__",
             [](const model_handle& h, const std::string& name) {
                 return snn::get_parameter(h.model, name);
             })
        .def("__eq__",
             [](const model_handle& a, const model_handle& b) { return a.model == b.model; })
        .def("__repr__", [](const model_handle& h) {
            std::ostringstream s;
            s << "volley.NeuronModel('" << snn::model_name(h.model) << "'";
            for (const auto& info : snn::model_parameters(h.model))
                s << ", " << info.name << "=" << snn::get_parameter(h.model, info.name);
            s << ")";
            return s.str();
        });
    m.def(
        "model_names",
        [] {
            return std::vector<std::string>{
                "lif_delta",       "lif_exp",      "lif_alpha", "lif_cond_exp",   "lif_cond_alpha",
                "izhikevich",      "adex",         "adex_alpha", "hh",      "poisson_source", "spike_source",
                "discrete_neuron", "analog_source"};
        },
        "Every neuron model's name.");

    py::class_<snn::all_to_all>(
        m, "AllToAll",
        "Every source to every target; a list-valued weight is row-major [source][target].")
        .def(py::init([](bool autapses) { return snn::all_to_all{autapses}; }),
             py::arg("allow_autapses") = true)
        .def_readwrite("allow_autapses", &snn::all_to_all::allow_autapses);
    py::class_<snn::one_to_one>(m, "OneToOne",
                                "Source i to target i (populations of the same size).")
        .def(py::init<>());
    py::class_<snn::fixed_probability>(m, "FixedProbability",
                                       "Each (source, target) pair with probability p.")
        .def(py::init([](double p, bool autapses) {
                 return snn::fixed_probability{p, autapses};
             }),
             py::arg("p"), py::arg("allow_autapses") = true)
        .def_readwrite("p", &snn::fixed_probability::p)
        .def_readwrite("allow_autapses", &snn::fixed_probability::allow_autapses);
    py::class_<snn::fixed_in_degree>(m, "FixedInDegree",
                                     "Each target gets exactly k sources: distinct ones, or k independent draws "
                                     "with allow_multapses.")
        .def(py::init([](std::uint32_t k, bool autapses, bool multapses) {
                 return snn::fixed_in_degree{k, autapses, multapses};
             }),
             py::arg("k"), py::arg("allow_autapses") = true, py::arg("allow_multapses") = false)
        .def_readwrite("k", &snn::fixed_in_degree::k)
        .def_readwrite("allow_autapses", &snn::fixed_in_degree::allow_autapses)
        .def_readwrite("allow_multapses", &snn::fixed_in_degree::allow_multapses);
    py::class_<snn::fixed_total_number>(m, "FixedTotalNumber",
                                        "Exactly n synapses in all, each from a uniformly drawn source to a "
                                        "uniformly drawn target (NEST's fixed_total_number; multapses).")
        .def(py::init([](std::uint64_t n, bool autapses) { return snn::fixed_total_number{n, autapses}; }),
             py::arg("n"), py::arg("allow_autapses") = true)
        .def_readwrite("n", &snn::fixed_total_number::n)
        .def_readwrite("allow_autapses", &snn::fixed_total_number::allow_autapses);
    py::class_<snn::from_list>(m, "FromList", "Explicit (source, target) pairs of local indices.")
        .def(py::init([](std::vector<std::uint32_t> s, std::vector<std::uint32_t> t) {
                 return snn::from_list{std::move(s), std::move(t)};
             }),
             py::arg("sources"), py::arg("targets"))
        .def_readwrite("sources", &snn::from_list::sources)
        .def_readwrite("targets", &snn::from_list::targets);
    py::class_<snn::convolution>(
        m, "Convolution", "A 2-D convolution with one shared kernel (OIHW, PyTorch's Conv2d).")
        .def(py::init([](std::uint32_t in_channels, std::uint32_t in_height, std::uint32_t in_width,
                         std::uint32_t out_channels, std::uint32_t kernel_height,
                         std::uint32_t kernel_width, std::vector<double> kernel,
                         std::uint32_t stride, std::uint32_t padding, std::uint32_t groups) {
                 snn::convolution c;
                 c.in_channels = in_channels, c.in_height = in_height, c.in_width = in_width;
                 c.out_channels = out_channels, c.kernel_height = kernel_height,
                 c.kernel_width = kernel_width;
                 c.stride_h = c.stride_w = stride;
                 c.pad_top = c.pad_bottom = c.pad_left = c.pad_right = padding;
                 c.groups = groups;
                 c.kernel = std::move(kernel);
                 return c;
             }),
             py::arg("in_channels"), py::arg("in_height"), py::arg("in_width"),
             py::arg("out_channels"), py::arg("kernel_height"), py::arg("kernel_width"),
             py::arg("kernel"), py::arg("stride") = 1, py::arg("padding") = 0,
             py::arg("groups") = 1)
        .def_property_readonly("out_height", &snn::convolution::out_height)
        .def_property_readonly("out_width", &snn::convolution::out_width);
    py::class_<snn::max_pool_gate>(m, "MaxPoolGate", "A gated max-pool over a C x H x W map.")
        .def(py::init([](std::uint32_t channels, std::uint32_t in_height, std::uint32_t in_width,
                         std::uint32_t pool, std::uint32_t stride) {
                 snn::max_pool_gate g;
                 g.channels = channels, g.in_height = in_height, g.in_width = in_width;
                 g.pool_h = g.pool_w = pool;
                 g.stride_h = g.stride_w = stride;
                 return g;
             }),
             py::arg("channels"), py::arg("in_height"), py::arg("in_width"), py::arg("pool") = 2,
             py::arg("stride") = 2)
        .def_property_readonly("out_height", &snn::max_pool_gate::out_height)
        .def_property_readonly("out_width", &snn::max_pool_gate::out_width);

    py::class_<snn::dc_current>(
        m, "DCCurrent",
        "A constant current on [start_ms, stop_ms): R*I in mV for the LIF models, pA for the "
        "conductance models, the paper's units for izhikevich.")
        .def(py::init([](double amplitude, double start, double stop) {
                 return snn::dc_current{amplitude, start, stop};
             }),
             py::arg("amplitude_mv"), py::arg("start_ms") = 0.0, py::arg("stop_ms") = infinity)
        .def_readwrite("amplitude_mv", &snn::dc_current::amplitude_mv)
        .def_readwrite("start_ms", &snn::dc_current::start_ms)
        .def_readwrite("stop_ms", &snn::dc_current::stop_ms);
    py::class_<snn::step_current>(
        m, "StepCurrent", "A piecewise-constant current: amplitudes_mv[i] from times_ms[i] on.")
        .def(py::init([](std::vector<double> t, std::vector<double> a) {
                 return snn::step_current{std::move(t), std::move(a)};
             }),
             py::arg("times_ms"), py::arg("amplitudes_mv"))
        .def_readwrite("times_ms", &snn::step_current::times_ms)
        .def_readwrite("amplitudes_mv", &snn::step_current::amplitudes_mv);
    py::class_<snn::ac_current>(
        m, "ACCurrent",
        "A sine on [start_ms, stop_ms): offset_mv + amplitude_mv * sin(2 pi frequency_hz (t - start_ms) "
        "/ 1000 + phase_deg pi / 180), sampled at the start of each step (the phase holds at start_ms).")
        .def(py::init([](double amplitude, double offset, double frequency, double phase, double start,
                         double stop) { return snn::ac_current{amplitude, offset, frequency, phase, start, stop}; }),
             py::arg("amplitude_mv"), py::arg("offset_mv") = 0.0, py::arg("frequency_hz") = 0.0,
             py::arg("phase_deg") = 0.0, py::arg("start_ms") = 0.0, py::arg("stop_ms") = infinity)
        .def_readwrite("amplitude_mv", &snn::ac_current::amplitude_mv)
        .def_readwrite("offset_mv", &snn::ac_current::offset_mv)
        .def_readwrite("frequency_hz", &snn::ac_current::frequency_hz)
        .def_readwrite("phase_deg", &snn::ac_current::phase_deg)
        .def_readwrite("start_ms", &snn::ac_current::start_ms)
        .def_readwrite("stop_ms", &snn::ac_current::stop_ms);
    py::class_<snn::noise_current>(
        m, "NoiseCurrent",
        "Gaussian noise on [start_ms, stop_ms): every interval_ms (a whole number of steps; 0: every "
        "step) each neuron draws mean_mv + stdev_mv * N(0, 1) of its own, from the simulation's seed.")
        .def(py::init([](double mean, double stdev, double interval, double start, double stop) {
                 return snn::noise_current{mean, stdev, interval, start, stop};
             }),
             py::arg("mean_mv"), py::arg("stdev_mv"), py::arg("interval_ms") = 0.0, py::arg("start_ms") = 0.0,
             py::arg("stop_ms") = infinity)
        .def_readwrite("mean_mv", &snn::noise_current::mean_mv)
        .def_readwrite("stdev_mv", &snn::noise_current::stdev_mv)
        .def_readwrite("interval_ms", &snn::noise_current::interval_ms)
        .def_readwrite("start_ms", &snn::noise_current::start_ms)
        .def_readwrite("stop_ms", &snn::noise_current::stop_ms);

    auto tm_property = [](snn::value_spec snn::tsodyks_markram::* field) {
        return std::make_pair(
            [field](const snn::tsodyks_markram& r) { return from_value_spec(r.*field); },
            [field](snn::tsodyks_markram& r, const py::object& v) { r.*field = to_value_spec(v); });
    };
    {
        py::class_<snn::tsodyks_markram> tm(
            m, "TsodyksMarkram",
            "Short-term plasticity (Tsodyks, Uziel & Markram 2000; NEST's tsodyks_synapse): U, tau_rec_ms, "
            "tau_facil_ms and tau_psc_ms, each a number or one value per synapse (docs/plasticity.md).");
        tm.def(py::init([](const py::object& u, const py::object& tau_rec, const py::object& tau_facil,
                           const py::object& tau_psc) {
                   return snn::tsodyks_markram{to_value_spec(u), to_value_spec(tau_rec), to_value_spec(tau_facil),
                                               to_value_spec(tau_psc)};
               }),
               py::arg("u") = 0.5, py::arg("tau_rec_ms") = 100.0, py::arg("tau_facil_ms") = 0.0,
               py::arg("tau_psc_ms") = 0.0);
        for (auto [name, field] : {std::pair{"u", &snn::tsodyks_markram::u},
                                   std::pair{"tau_rec_ms", &snn::tsodyks_markram::tau_rec_ms},
                                   std::pair{"tau_facil_ms", &snn::tsodyks_markram::tau_facil_ms},
                                   std::pair{"tau_psc_ms", &snn::tsodyks_markram::tau_psc_ms}}) {
            auto [get, set] = tm_property(field);
            tm.def_property(name, get, set);
        }
    }
    py::class_<snn::stochastic_release>(
        m, "StochasticRelease",
        "Stochastic release (NEST's bernoulli_synapse): each spike crosses each synapse with probability "
        "p_transmit (a number or one value per synapse), drawn from the simulation's seed.")
        .def(py::init([](const py::object& p) { return snn::stochastic_release{to_value_spec(p)}; }),
             py::arg("p_transmit") = 1.0)
        .def_property(
            "p_transmit", [](const snn::stochastic_release& r) { return from_value_spec(r.p_transmit); },
            [](snn::stochastic_release& r, const py::object& v) { r.p_transmit = to_value_spec(v); });
    {
        py::class_<snn::quantal_release> qr(
            m, "QuantalRelease",
            "Multi-quantal release with short-term plasticity (Fuhrmann et al. 2002; NEST's quantal_stp_synapse, "
            "PyNN's MultiQuantalSynapse): U, tau_rec_ms, tau_facil_ms, sites, and the state before the first "
            "spike initial_u (default U) and initial_available (default sites); each a number or one value per "
            "synapse (docs/plasticity.md).");
        qr.def(py::init([](const py::object& u, const py::object& tau_rec, const py::object& tau_facil,
                           const py::object& sites, const py::object& initial_u, const py::object& initial_available) {
                   snn::quantal_release r{to_value_spec(u), to_value_spec(tau_rec), to_value_spec(tau_facil),
                                          to_value_spec(sites)};
                   if (!initial_u.is_none()) r.initial_u = to_value_spec(initial_u);
                   if (!initial_available.is_none()) r.initial_available = to_value_spec(initial_available);
                   return r;
               }),
               py::arg("u") = 0.5, py::arg("tau_rec_ms") = 800.0, py::arg("tau_facil_ms") = 0.0, py::arg("sites") = 1,
               py::arg("initial_u") = py::none(), py::arg("initial_available") = py::none());
        for (auto [name, field] : {std::pair{"u", &snn::quantal_release::u},
                                   std::pair{"tau_rec_ms", &snn::quantal_release::tau_rec_ms},
                                   std::pair{"tau_facil_ms", &snn::quantal_release::tau_facil_ms},
                                   std::pair{"sites", &snn::quantal_release::sites}})
            qr.def_property(
                name, [field](const snn::quantal_release& r) { return from_value_spec(r.*field); },
                [field](snn::quantal_release& r, const py::object& v) { r.*field = to_value_spec(v); });
        for (auto [name, field] : {std::pair{"initial_u", &snn::quantal_release::initial_u},
                                   std::pair{"initial_available", &snn::quantal_release::initial_available}})
            qr.def_property(
                name,
                [field](const snn::quantal_release& r) -> py::object {
                    return r.*field ? from_value_spec(*(r.*field)) : py::object(py::none());
                },
                [field](snn::quantal_release& r, const py::object& v) {
                    if (v.is_none()) (r.*field).reset();
                    else r.*field = to_value_spec(v);
                });
    }
    py::class_<snn::stdp_pair>(
        m, "StdpPair", "Pair-based STDP (docs/plasticity.md); weights in the projection's units.")
        .def(py::init([](double tau_plus, double tau_minus, double a_plus, double a_minus,
                         double w_min, double w_max, const std::string& dependence,
                         const std::string& pairing, double dendritic_delay, double mu) {
                 snn::stdp_pair r{tau_plus, tau_minus, a_plus, a_minus, w_min, w_max};
                 r.dendritic_delay_ms = dendritic_delay;
                 r.mu = mu;
                 if (dependence == "multiplicative")
                     r.dependence = snn::stdp_weight_dependence::multiplicative;
                 else if (dependence == "soft_bounds")
                     r.dependence = snn::stdp_weight_dependence::soft_bounds;
                 else if (dependence == "power_law")
                     r.dependence = snn::stdp_weight_dependence::power_law;
                 else if (dependence != "additive")
                     throw invalid_parameter("StdpPair", "dependence", dependence,
                                             "must be additive, multiplicative, soft_bounds or power_law");
                 if (pairing == "nearest")
                     r.pairing = snn::stdp_pairing::nearest;
                 else if (pairing != "all_to_all")
                     throw invalid_parameter("StdpPair", "pairing", pairing,
                                             "must be all_to_all or nearest");
                 snn::validate_plasticity(r, "StdpPair");
                 return r;
             }),
             py::arg("tau_plus_ms") = 20.0, py::arg("tau_minus_ms") = 20.0,
             py::arg("a_plus") = 0.005, py::arg("a_minus") = 0.00525, py::arg("w_min") = 0.0,
             py::arg("w_max") = 1.0, py::arg("dependence") = "additive",
             py::arg("pairing") = "all_to_all", py::arg("dendritic_delay_ms") = 0.0, py::arg("mu") = 0.4)
        .def_readwrite("tau_plus_ms", &snn::stdp_pair::tau_plus_ms)
        .def_readwrite("tau_minus_ms", &snn::stdp_pair::tau_minus_ms)
        .def_readwrite("a_plus", &snn::stdp_pair::a_plus)
        .def_readwrite("a_minus", &snn::stdp_pair::a_minus)
        .def_readwrite("w_min", &snn::stdp_pair::w_min)
        .def_readwrite("w_max", &snn::stdp_pair::w_max)
        .def_readwrite("dendritic_delay_ms", &snn::stdp_pair::dendritic_delay_ms)
        .def_readwrite("mu", &snn::stdp_pair::mu);
}

}  // namespace volley::python
