// volley.Simulation and its recorders. run() releases the GIL and stops at Ctrl-C with the
// recordings valid, as `volley run` does (apps/run_driver.cpp); run_recorded() is the library's
// recorded run (volley/snn/recorded_run.hpp), the same as `volley run`'s, with its outputs.
// Recorded data comes back as read-only NumPy views of the recorders' vectors, without copying
// (see recorder_views); read_spikes() reads a written spike file back.

#include "bindings.hpp"
#include "conversions.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <volley/error.hpp>
#include <volley/snn/recorded_run.hpp>
#include <volley/snn/run_figures_json.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/spike_csv.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <stdexcept>
#include <vector>

namespace volley::python {

namespace {

/// Why: a NumPy view must outlive the next run(), which may grow (and so move) the vector it
/// looks at. A view's base object owns a `view_anchor`; before anything changes a recorder's
/// vectors, retire() hands their current buffers to the anchors still alive and leaves copies in
/// the recorder. So views cost nothing until a run follows while they are alive, and then one
/// copy per recorded vector.
struct view_anchor {
    std::shared_ptr<void> owner;  ///< the recorder's data, alive while the view is
    std::vector<std::int64_t> retired_i64;
    std::vector<std::uint32_t> retired_u32;
    std::vector<double> retired_f64;
    bool retired = false;
};

/// Every live anchor of one simulation's recorders, by the vector it looks at.
class recorder_views {
  public:
    template <class T>
    py::array view(std::vector<T>& v, std::shared_ptr<void> owner,
                   const std::vector<py::ssize_t>& shape) {
        auto anchor = std::make_shared<view_anchor>();
        anchor->owner = std::move(owner);
        entries_.push_back({anchor, &v});
        auto* keep = new std::shared_ptr<view_anchor>(anchor);
        py::capsule base(keep,
                         [](void* p) { delete static_cast<std::shared_ptr<view_anchor>*>(p); });
        py::array a = new_array<T>(shape, v.data(), base);
        a.attr("setflags")(py::arg("write") = false);
        return a;
    }

    /// Called before run(), reset() and restore(): afterwards every view owns its buffer.
    void retire() {
        for (auto& e : entries_) {
            auto anchor = e.anchor.lock();
            if (!anchor || anchor->retired) continue;
            std::visit([&](auto* v) { retire_into(*anchor, *v); }, e.vector);
            anchor->retired = true;
        }
        entries_.clear();
    }

  private:
    template <class T>
    static void retire_into(view_anchor& a, std::vector<T>& v) {
        std::vector<T> copy(v);
        if constexpr (std::is_same_v<T, std::int64_t>)
            a.retired_i64.swap(v);
        else if constexpr (std::is_same_v<T, std::uint32_t>)
            a.retired_u32.swap(v);
        else
            a.retired_f64.swap(v);
        v = std::move(copy);
    }
    struct entry {
        std::weak_ptr<view_anchor> anchor;
        std::variant<std::vector<std::int64_t>*, std::vector<std::uint32_t>*, std::vector<double>*>
            vector;
    };
    std::vector<entry> entries_;
};

/// A simulation and the views of its recorders' data. `busy` is set while a call runs without
/// the GIL, so that another Python thread cannot touch the simulation meanwhile.
struct py_simulation {
    std::unique_ptr<snn::simulation> sim;
    std::shared_ptr<recorder_views> views = std::make_shared<recorder_views>();
    std::unique_ptr<std::atomic<bool>> busy = std::make_unique<std::atomic<bool>>(false);
};

/// Marks a simulation busy for a call's lifetime; raises RuntimeError when another thread has it.
class busy_guard {
  public:
    explicit busy_guard(const py_simulation& s) : flag_(*s.busy) {
        if (flag_.exchange(true))
            throw std::runtime_error(
                "volley.Simulation: in use by another thread (run, checkpoint or restore)");
    }
    ~busy_guard() { flag_.store(false); }
    busy_guard(const busy_guard&) = delete;
    busy_guard& operator=(const busy_guard&) = delete;

  private:
    std::atomic<bool>& flag_;
};

struct py_spike_recorder {
    std::shared_ptr<snn::spike_data> data;
    std::shared_ptr<recorder_views> views;
};
struct py_state_recorder {
    std::shared_ptr<snn::state_data> data;
    std::shared_ptr<recorder_views> views;
};

struct py_weight_recorder {
    std::shared_ptr<snn::weight_data> data;
    std::shared_ptr<recorder_views> views;
};

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) {
    interrupted.store(true);
}

/// Installs the Ctrl-C handler for the life of a run on the main thread, and restores Python's.
class sigint_guard {
  public:
    explicit sigint_guard(bool install) : installed_(install) {
        interrupted.store(false);
        if (installed_) previous_ = std::signal(SIGINT, on_sigint);
    }
    ~sigint_guard() {
        if (installed_) std::signal(SIGINT, previous_);
    }

  private:
    bool installed_;
    void (*previous_)(int) = nullptr;
};

bool on_main_thread() {
    auto threading = py::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

/// The handle's shared data (a recorder keeps it in a private shared_ptr; its data() reference
/// lives as long as any copy of the handle, which the aliasing pointer holds).
template <class Recorder, class Data>
std::shared_ptr<Data> shared_data(const Recorder& r) {
    auto holder = std::make_shared<Recorder>(r);
    return std::shared_ptr<Data>(holder, const_cast<Data*>(&holder->data()));
}


py::dict stats_dict(const snn::simulation_stats& s) {
    py::dict d;
    d["neurons"] = s.neurons;
    d["synapses"] = s.synapses;
    d["synapse_table_bytes"] = s.synapse_table_bytes;
    d["plastic_synapses"] = s.plastic_synapses;
    d["spikes"] = s.spikes;
    d["population_spikes"] = s.population_spikes;
    d["synaptic_events"] = s.synaptic_events;
    d["steps"] = s.steps;
    d["build_s"] = s.build_s;
    d["sim_s"] = s.sim_s;
    d["threads"] = s.threads;
    return d;
}

}  // namespace

/// "auto", "cpu", "portable" or "cuda" (snn::backend_kind); invalid_parameter otherwise.
snn::backend_kind backend_from_name(const std::string& name) {
    if (name == "auto") return snn::backend_kind::automatic;
    if (name == "cpu") return snn::backend_kind::cpu;
    if (name == "portable") return snn::backend_kind::portable;
    if (name == "cuda") return snn::backend_kind::cuda;
    throw invalid_parameter("Simulation", "backend", name, "must be auto, cpu, portable or cuda");
}

void bind_simulation(py::module_& m) {
    py::class_<py_spike_recorder>(m, "SpikeRecorder", R"doc(
Recorded spikes of one population (or the listed neurons of it), in time order. `steps` and
`node_ids` are read-only NumPy views of the recorder's data (no copy); `times_ms` is computed.
Views taken before a later run() stay valid and keep the values they had.)doc")
        .def_property_readonly("population",
                               [](const py_spike_recorder& r) { return r.data->population; })
        .def_property_readonly("dt_ms", [](const py_spike_recorder& r) { return r.data->dt_ms; })
        .def("__repr__",
             [](const py_spike_recorder& r) {
                 return "volley.SpikeRecorder('" + r.data->population + "', " + std::to_string(r.data->recorded_neurons) +
                        " neurons, " + std::to_string(r.data->steps.size()) + " spikes)";
             })
        .def_property_readonly(
            "steps",
            [](py_spike_recorder& r) {
                return r.views->view(r.data->steps, r.data,
                                     {static_cast<py::ssize_t>(r.data->steps.size())});
            },
            "Spike steps (int64): time = step * dt_ms.")
        .def_property_readonly(
            "node_ids",
            [](py_spike_recorder& r) {
                return r.views->view(r.data->node_ids, r.data,
                                     {static_cast<py::ssize_t>(r.data->node_ids.size())});
            },
            "Local neuron ids (uint32), one per spike.")
        .def_property_readonly(
            "times_ms",
            [](const py_spike_recorder& r) {
                const auto times = snn::spike_times_ms(*r.data, 0, r.data->steps.size());
                auto t = new_array<double>({static_cast<py::ssize_t>(times.size())});
                std::copy(times.begin(), times.end(), t.mutable_data());
                return t;
            },
            "Spike times [ms] (float64): step * dt_ms, or a spike source's exact times.")
        .def(
            "spikes",
            [](py::object self) {
                return py::make_tuple(self.attr("times_ms"), self.attr("node_ids"));
            },
            "(times_ms, node_ids) as two NumPy arrays.")
        .def_property_readonly(
            "mean_rate_hz",
            [](const py_spike_recorder& r) { return snn::spike_recorder(r.data).mean_rate_hz(); },
            "Mean rate over the recorded neurons and the time recorded [Hz].")
        .def_property_readonly("population_size",
                               [](const py_spike_recorder& r) { return r.data->population_size; })
        .def_property_readonly("recorded_neurons",
                               [](const py_spike_recorder& r) { return r.data->recorded_neurons; })
        .def_property_readonly("steps_recorded",
                               [](const py_spike_recorder& r) { return r.data->steps_recorded; })
        .def("__len__", [](const py_spike_recorder& r) { return r.data->steps.size(); });

    py::class_<py_state_recorder>(m, "StateRecorder", R"doc(
Samples of one state variable. `values` is a read-only (samples, neurons) NumPy view of the
recorder's data (no copy), column j belonging to node_ids[j]; `times_ms` the sample times.)doc")
        .def_property_readonly("population",
                               [](const py_state_recorder& r) { return r.data->population; })
        .def_property_readonly("variable",
                               [](const py_state_recorder& r) { return r.data->variable; })
        .def_property_readonly(
            "node_ids", [](const py_state_recorder& r) { return to_array(r.data->node_ids); })
        .def_property_readonly("values",
                               [](py_state_recorder& r) {
                                   const auto n = static_cast<py::ssize_t>(r.data->node_ids.size());
                                   const auto s =
                                       static_cast<py::ssize_t>(r.data->sample_steps.size());
                                   return r.views->view(r.data->values, r.data, {s, n});
                               })
        .def_property_readonly(
            "times_ms",
            [](const py_state_recorder& r) {
                auto t = new_array<double>({static_cast<py::ssize_t>(r.data->sample_steps.size())});
                auto* out = t.mutable_data();
                for (std::size_t i = 0; i < r.data->sample_steps.size(); ++i)
                    out[i] = static_cast<double>(r.data->sample_steps[i]) * r.data->dt_ms;
                return t;
            })
        .def("__len__", [](const py_state_recorder& r) { return r.data->sample_steps.size(); });

    py::class_<py_weight_recorder>(m, "WeightRecorder", R"doc(
Samples of the weights of one projection (Simulation.record_weights). `values` is a read-only
(samples, synapses) NumPy view of the recorder's data (no copy), column k belonging to the
synapse sources[k] -> targets[k] (local indices; grouped by target, in connector order, as
Simulation.weights lists them); `times_ms` the sample times.)doc")
        .def_property_readonly("projection", [](const py_weight_recorder& r) { return r.data->projection; })
        .def_property_readonly("source", [](const py_weight_recorder& r) { return r.data->source; })
        .def_property_readonly("target", [](const py_weight_recorder& r) { return r.data->target; })
        .def_property_readonly("sources", [](const py_weight_recorder& r) { return to_array(r.data->sources); })
        .def_property_readonly("targets", [](const py_weight_recorder& r) { return to_array(r.data->targets); })
        .def_property_readonly("values",
                               [](py_weight_recorder& r) {
                                   const auto n = static_cast<py::ssize_t>(r.data->sources.size());
                                   const auto s = static_cast<py::ssize_t>(r.data->sample_steps.size());
                                   return r.views->view(r.data->values, r.data, {s, n});
                               })
        .def_property_readonly(
            "times_ms",
            [](const py_weight_recorder& r) {
                auto t = new_array<double>({static_cast<py::ssize_t>(r.data->sample_steps.size())});
                auto* out = t.mutable_data();
                for (std::size_t i = 0; i < r.data->sample_steps.size(); ++i)
                    out[i] = static_cast<double>(r.data->sample_steps[i]) * r.data->dt_ms;
                return t;
            })
        .def("__len__", [](const py_weight_recorder& r) { return r.data->sample_steps.size(); });

    m.def(
        "read_spikes",
        [](const std::filesystem::path& file) {
            const auto pops = file.extension() == ".csv" ? snn::read_spike_csv(file) : snn::read_sonata_spikes(file);
            py::dict d;
            for (const auto& p : pops) d[py::str(p.population)] = py::make_tuple(to_array(p.node_ids), to_array(p.timestamps_ms));
            return d;
        },
        py::arg("file"),
        "The spikes of a file written by run_recorded or `volley run --out` (.h5 SONATA, or .csv): "
        "{population: (node_ids, times_ms)} as NumPy arrays, in the file's order.");

    py::class_<py_simulation>(m, "Simulation", R"doc(
A simulation of one network (a copy of it is taken). threads=0 uses the OpenMP default. backend:
"auto" (cuda when gpu_id >= 0, else cpu), "cpu", "portable" (the CUDA backend's source on
OpenMP threads) or "cuda" on device gpu_id (docs/cuda.md); one this build lacks is an error. The C++
code runs without the GIL; Ctrl-C stops run() after the current step, keeps the recordings and
raises KeyboardInterrupt, and the simulation can be run on.)doc")
        .def(py::init([](const snn::network& net, double dt_ms, std::uint64_t seed, int threads,
                         std::uint64_t max_memory_bytes, const std::string& backend, int gpu_id) {
                 snn::simulation_options o;
                 o.dt_ms = dt_ms;
                 o.seed = seed;
                 o.max_memory_bytes = max_memory_bytes;
                 snn::context ctx;
                 ctx.threads = threads;
                 ctx.gpu_id = gpu_id;
                 ctx.backend = backend_from_name(backend);
                 // Another thread may change `net` while this one builds.
                 const snn::network copy = net;
                 py::gil_scoped_release release;
                 return py_simulation{std::make_unique<snn::simulation>(copy, ctx, o)};
             }),
             py::arg("network"), py::arg("dt_ms") = 0.1, py::arg("seed") = 42,
             py::arg("threads") = 0, py::arg("max_memory_bytes") = 0, py::arg("backend") = "auto",
             py::arg("gpu_id") = -1)
        .def(
            "record_spikes",
            [](py_simulation& s, const population_ref& pop, std::vector<std::uint32_t> neurons) {
                busy_guard busy(s);
                auto r = s.sim->record_spikes(resolve(s.sim->model(), pop), std::move(neurons));
                return py_spike_recorder{shared_data<snn::spike_recorder, snn::spike_data>(r),
                                         s.views};
            },
            py::arg("population"), py::arg("neurons") = std::vector<std::uint32_t>{},
            "Records the spikes of a population, or of the listed neurons of it.")
        .def(
            "record_state",
            [](py_simulation& s, const population_ref& pop, const std::string& variable,
               double interval_ms, std::vector<std::uint32_t> neurons) {
                busy_guard busy(s);
                auto r = s.sim->record_state(resolve(s.sim->model(), pop), variable, interval_ms,
                                             std::move(neurons));
                return py_state_recorder{shared_data<snn::state_recorder, snn::state_data>(r),
                                         s.views};
            },
            py::arg("population"), py::arg("variable"), py::arg("interval_ms"),
            py::arg("neurons") = std::vector<std::uint32_t>{},
            "Records a state variable (v_mv, ...) every interval_ms (whole steps).")
        .def(
            "record_weights",
            [](py_simulation& s, std::size_t projection, double interval_ms) {
                busy_guard busy(s);
                auto r = s.sim->record_weights(projection, interval_ms);
                return py_weight_recorder{shared_data<snn::weight_recorder, snn::weight_data>(r), s.views};
            },
            py::arg("projection"), py::arg("interval_ms"),
            "Samples the weights of a projection every interval_ms (whole steps), from now on.")
        .def(
            "run",
            [](py_simulation& s, double duration_ms) {
                busy_guard busy(s);
                s.views->retire();
                const bool main_thread = on_main_thread();
                bool completed = false;
                {
                    py::gil_scoped_release release;
                    sigint_guard guard(main_thread);
                    const double dt = s.sim->options().dt_ms;
                    const auto steps = static_cast<std::int64_t>(duration_ms / dt + 0.5);
                    s.sim->on_progress(
                        [](std::int64_t, std::int64_t) { return !interrupted.load(); },
                        (std::min<std::int64_t>(steps / 200 + 1, 1000) + 1) / 2 * 2);
                    completed = s.sim->run(duration_ms);
                }
                if (!completed) {
                    PyErr_SetNone(PyExc_KeyboardInterrupt);
                    throw py::error_already_set();
                }
            },
            py::arg("duration_ms"),
            "Advances by duration_ms (whole steps); can be called again to continue.")
        .def(
            "run_recorded",
            [](py_simulation& s, double duration_ms, std::optional<std::filesystem::path> out,
               std::optional<std::filesystem::path> plot, const std::string& title,
               const std::vector<std::tuple<std::string, std::string, double>>& record,
               std::optional<std::filesystem::path> checkpoint, double checkpoint_every_ms,
               std::optional<std::filesystem::path> resume, double flush_every_s, bool record_sources,
               bool count_only, double transient_ms) {
                busy_guard busy(s);
                s.views->retire();
                snn::recorded_run_options o{.out = std::move(out),
                                            .plot = std::move(plot),
                                            .plot_title = title,
                                            .checkpoint = std::move(checkpoint),
                                            .checkpoint_every_ms = checkpoint_every_ms,
                                            .resume = std::move(resume),
                                            .flush_every_s = flush_every_s,
                                            .record_sources = record_sources,
                                            .count_only = count_only,
                                            .transient_ms = transient_ms};
                for (const auto& [pop, variable, interval_ms] : record) o.states.push_back({pop, variable, interval_ms});
                const bool main_thread = on_main_thread();
                snn::run_figures figures;
                {
                    py::gil_scoped_release release;
                    sigint_guard guard(main_thread);
                    figures = snn::run_recorded(*s.sim, duration_ms, o, {.stop = &interrupted});
                }
                auto dict = from_json(snn::run_figures_json(figures));
                if (!figures.completed) {
                    PyErr_SetObject(PyExc_KeyboardInterrupt, dict.ptr());
                    throw py::error_already_set();
                }
                return dict;
            },
            py::arg("duration_ms"), py::kw_only(), py::arg("out") = py::none(), py::arg("plot") = py::none(),
            py::arg("title") = "", py::arg("record") = std::vector<std::tuple<std::string, std::string, double>>{},
            py::arg("checkpoint") = py::none(), py::arg("checkpoint_every_ms") = 0.0, py::arg("resume") = py::none(),
            py::arg("flush_every_s") = 1.0, py::arg("record_sources") = true, py::arg("count_only") = false,
            py::arg("transient_ms") = 0.0,
            R"doc(
Runs duration_ms on from here as `volley run` does (docs/python.md, "Recorded runs"): every
population's spikes stream into `out` (.h5, SONATA, flushed every flush_every_s of wall time; or
.csv, at the end), `record` lists (population, variable, interval_ms) sampled into the .h5 output,
`plot` is an SVG raster with rates titled `title`, `checkpoint` is written every
checkpoint_every_ms (0: only at the end) and at the end, and `resume` is a checkpoint restored
first. Returns the figures `volley run --json` prints, as a dict. Ctrl-C stops it after the
current step with the outputs finished and the checkpoint written, and raises KeyboardInterrupt
whose args[0] is the figures (completed False).)doc")
        .def(
            "reset",
            [](py_simulation& s) {
                busy_guard busy(s);
                s.views->retire();
                s.sim->reset();
            },
            "Back to step 0 with the state as built; recorders are cleared and stay attached.")
        .def(
            "checkpoint",
            [](const py_simulation& s, const std::filesystem::path& file) {
                busy_guard busy(s);
                py::gil_scoped_release release;
                s.sim->checkpoint(file);
            },
            py::arg("file"),
            "Writes the whole dynamic state to an HDF5 file (docs/engine.md, Checkpoints).")
        .def(
            "restore",
            [](py_simulation& s, const std::filesystem::path& file) {
                busy_guard busy(s);
                s.views->retire();
                py::gil_scoped_release release;
                s.sim->restore(file);
            },
            py::arg("file"),
            "Continues from a checkpoint of the same network, dt, seed and thread count.")
        .def(
            "set_input",
            [](py_simulation& s, const population_ref& pop, const py::object& values) {
                busy_guard busy(s);
                const auto p = resolve(s.sim->model(), pop);
                if (py::cast<int>(py::module_::import("numpy").attr("ndim")(values)) == 2)
                    s.sim->set_input(p, snn::step_table_input{
                                            py::cast<std::vector<std::vector<double>>>(values)});
                else
                    s.sim->set_input(p, snn::constant_input{py::cast<std::vector<double>>(values)});
            },
            py::arg("population"), py::arg("values"),
            "Input from outside: one current per neuron (discrete_neuron) or a [step][neuron] "
            "table (analog_source).")
        .def(
            "set_current",
            [](py_simulation& s, std::size_t stimulus, const snn::current_waveform& waveform) {
                busy_guard busy(s);
                s.sim->set_current(stimulus, waveform);
            },
            py::arg("stimulus"), py::arg("current"),
            "Between runs: replaces the waveform of current stimulus `stimulus` (its index in the order of "
            "Network.inject) from the next step on.")
        .def(
            "set_spike_times",
            [](py_simulation& s, const population_ref& pop, std::vector<std::vector<double>> times) {
                busy_guard busy(s);
                s.sim->set_spike_times(resolve(s.sim->model(), pop), std::move(times));
            },
            py::arg("population"), py::arg("spike_times_ms"),
            "Between runs: new spike trains (one per neuron) for a spike_source population, sent from the "
            "next step on; a time not after the time already simulated is refused.")
        .def(
            "set_parameter",
            [](py_simulation& s, const population_ref& pop, const std::string& name, const py::object& value) {
                busy_guard busy(s);
                s.sim->set_parameter(resolve(s.sim->model(), pop), name, to_value_spec(value));
            },
            py::arg("population"), py::arg("name"), py::arg("value"),
            "Between runs: a poisson_source population's parameter (rate_hz, start_ms, stop_ms, dead_time_ms, "
            "gamma_shape; a number, one value per neuron or a distribution) from now on.")
        .def(
            "current_trace",
            [](const py_simulation& s, std::size_t stimulus, std::uint32_t neuron, std::int64_t steps) {
                busy_guard busy(s);
                const auto& o = s.sim->options();
                return to_array(snn::current_trace(s.sim->model(), stimulus, neuron, o.dt_ms, o.seed, steps));
            },
            py::arg("stimulus"), py::arg("neuron"), py::arg("steps"),
            "The current that stimulus `stimulus` adds to `neuron` in each of the first `steps` steps, as "
            "this simulation has it now (set_current included): volley.current_trace with its dt and seed.")
        .def(
            "weights",
            [](const py_simulation& s, std::size_t projection) {
                busy_guard busy(s);
                auto w = s.sim->weights(projection);
                return py::make_tuple(to_array(w.sources), to_array(w.targets),
                                      to_array(w.weights));
            },
            py::arg("projection"), "(sources, targets, weights) of a projection, as NumPy arrays.")
        .def_property_readonly("time_ms", [](const py_simulation& s) { return s.sim->time_ms(); })
        .def("__repr__",
             [](const py_simulation& s) {
                 const auto& net = s.sim->model();
                 std::ostringstream o;
                 o << "volley.Simulation(" << net.populations().size() << " populations, " << net.neuron_count()
                   << " neurons, dt_ms=" << s.sim->options().dt_ms << ", time_ms=" << s.sim->time_ms()
                   << ", threads=" << s.sim->stats().threads << ")";
                 return o.str();
             })
        .def_property_readonly("step",
                               [](const py_simulation& s) { return s.sim->current_step().value; })
        .def_property_readonly("dt_ms",
                               [](const py_simulation& s) { return s.sim->options().dt_ms; })
        .def_property_readonly("network", [](const py_simulation& s) { return s.sim->model(); })
        .def(
            "stats",
            [](const py_simulation& s) {
                busy_guard busy(s);
                return stats_dict(s.sim->stats());
            },
            "Figures so far: neurons, synapses, spikes, steps, build and run wall time [s], ...");
}

}  // namespace volley::python
