// volley.analysis: the spike-train analysis library (docs/analysis.md) on NumPy arrays of spike
// times [ms]. A C-contiguous float64 array is read in place through the buffer protocol; any
// other sequence is converted once.

#include "bindings.hpp"
#include "conversions.hpp"

#include <pybind11/stl.h>

#include <volley/error.hpp>
#include <volley/snn/analysis/distances.hpp>
#include <volley/snn/analysis/population.hpp>
#include <volley/snn/analysis/statistics.hpp>

#include <string>
#include <vector>

namespace volley::python {

namespace {

namespace an = snn::analysis;

/// A spike train viewed from a Python object, and the converted array when one was needed.
struct train_arg {
    py::object keep;
    an::spike_train train;
};

train_arg as_train(const py::handle& obj) {
    py::object arr = py::reinterpret_borrow<py::object>(obj);
    if (!PyObject_CheckBuffer(obj.ptr()))
        arr = py::module_::import("numpy").attr("ascontiguousarray")(obj,
                                                                     py::arg("dtype") = "float64");
    auto buffer = py::reinterpret_borrow<py::buffer>(arr).request();
    if (buffer.format != "d" || buffer.ndim != 1 ||
        (buffer.size > 1 && buffer.strides[0] != sizeof(double))) {
        arr = py::module_::import("numpy")
                  .attr("ascontiguousarray")(obj, py::arg("dtype") = "float64")
                  .attr("ravel")();
        buffer = py::reinterpret_borrow<py::buffer>(arr).request();
    }
    return {arr, an::spike_train(static_cast<const double*>(buffer.ptr),
                                 static_cast<std::size_t>(buffer.size))};
}

struct trains_arg {
    std::vector<train_arg> held;
    std::vector<an::spike_train> trains;
};

trains_arg as_trains(const py::iterable& objs) {
    trains_arg out;
    for (const auto& o : objs) out.held.push_back(as_train(o));
    for (const auto& h : out.held) out.trains.push_back(h.train);
    an::check_spike_trains(out.trains);
    return out;
}

an::spike_train checked(const train_arg& t, std::size_t index = 0) {
    an::check_spike_train(t.train, index);
    return t.train;
}

py::array square(const std::vector<double>& values, std::size_t n) {
    const auto s = static_cast<py::ssize_t>(n);
    return new_array<double>({s, s}, values.data());
}

an::distance_measure measure_from_name(const std::string& name) {
    if (name == "van_rossum") return an::distance_measure::van_rossum;
    if (name == "victor_purpura") return an::distance_measure::victor_purpura;
    if (name == "isi") return an::distance_measure::isi;
    if (name == "spike") return an::distance_measure::spike;
    if (name == "spike_sync") return an::distance_measure::spike_sync;
    throw invalid_parameter("distance_matrix", "measure", name,
                            "must be van_rossum, victor_purpura, isi, spike or spike_sync");
}

}  // namespace

void bind_analysis(py::module_& parent) {
    auto m =
        parent.def_submodule("analysis",
                             "Spike-train statistics, synchrony and distances (docs/analysis.md). "
                             "Trains are 1-D arrays of sorted spike times [ms].");
    using an::time_window;
    m.def(
        "mean_rate_hz",
        [](const py::object& t, double start, double stop) {
            return an::mean_rate_hz(checked(as_train(t)), time_window{start, stop});
        },
        py::arg("train"), py::arg("start_ms"), py::arg("stop_ms"),
        "Spikes in [start, stop) per second [Hz].");
    m.def(
        "isis", [](const py::object& t) { return to_array(an::isis(checked(as_train(t)))); },
        py::arg("train"), "Inter-spike intervals [ms].");
    m.def(
        "cv", [](const py::object& t) { return an::cv(checked(as_train(t))); }, py::arg("train"),
        "Coefficient of variation of the ISIs.");
    m.def(
        "cv2", [](const py::object& t) { return an::cv2(checked(as_train(t))); }, py::arg("train"),
        "Holt et al.'s CV2 of consecutive ISIs.");
    m.def(
        "lv", [](const py::object& t) { return an::lv(checked(as_train(t))); }, py::arg("train"),
        "Shinomoto's local variation of the ISIs.");
    m.def(
        "fano_factor",
        [](const py::iterable& trials) {
            auto a = as_trains(trials);
            return an::fano_factor(std::span<const an::spike_train>(a.trains));
        },
        py::arg("trials"), "Fano factor of the spike counts of trials (one train each).");
    m.def(
        "van_rossum_distance",
        [](const py::object& a, const py::object& b, double tau) {
            return an::van_rossum_distance(checked(as_train(a), 0), checked(as_train(b), 1), tau);
        },
        py::arg("a"), py::arg("b"), py::arg("tau_ms"),
        "Van Rossum distance as Elephant defines it.");
    m.def(
        "victor_purpura_distance",
        [](const py::object& a, const py::object& b, double cost) {
            return an::victor_purpura_distance(checked(as_train(a), 0), checked(as_train(b), 1),
                                               cost);
        },
        py::arg("a"), py::arg("b"), py::arg("cost_per_ms"), "Victor-Purpura distance.");
    auto kreuz = [](double start, double stop, double mrts) {
        an::kreuz_options o;
        o.window = {start, stop};
        o.mrts_ms = mrts;
        return o;
    };
    m.def(
        "isi_distance",
        [kreuz](const py::object& a, const py::object& b, double start, double stop, double mrts) {
            return an::isi_distance(checked(as_train(a), 0), checked(as_train(b), 1),
                                    kreuz(start, stop, mrts));
        },
        py::arg("a"), py::arg("b"), py::arg("start_ms"), py::arg("stop_ms"),
        py::arg("mrts_ms") = 0.0, "ISI-distance (Kreuz et al. 2007), as PySpike computes it.");
    m.def(
        "spike_distance",
        [kreuz](const py::object& a, const py::object& b, double start, double stop, double mrts) {
            return an::spike_distance(checked(as_train(a), 0), checked(as_train(b), 1),
                                      kreuz(start, stop, mrts));
        },
        py::arg("a"), py::arg("b"), py::arg("start_ms"), py::arg("stop_ms"),
        py::arg("mrts_ms") = 0.0, "SPIKE-distance (Kreuz et al. 2013), as PySpike computes it.");
    m.def(
        "spike_synchronization",
        [kreuz](const py::object& a, const py::object& b, double start, double stop) {
            return an::spike_synchronization(checked(as_train(a), 0), checked(as_train(b), 1),
                                             kreuz(start, stop, 0.0));
        },
        py::arg("a"), py::arg("b"), py::arg("start_ms"), py::arg("stop_ms"),
        "SPIKE-synchronization (Kreuz et al. 2015).");
    m.def(
        "distance_matrix",
        [kreuz](const py::iterable& trains, const std::string& measure, double tau_ms,
                double cost_per_ms, double start, double stop) {
            auto a = as_trains(trains);
            an::distance_options o;
            o.tau_ms = tau_ms;
            o.cost_per_ms = cost_per_ms;
            o.kreuz = kreuz(start, stop, 0.0);
            const auto measure_kind = measure_from_name(measure);
            std::vector<double> values;
            {
                py::gil_scoped_release release;
                values = an::distance_matrix(a.trains, measure_kind, o);
            }
            return square(values, a.trains.size());
        },
        py::arg("trains"), py::arg("measure"), py::arg("tau_ms") = 10.0,
        py::arg("cost_per_ms") = 0.1, py::arg("start_ms") = 0.0, py::arg("stop_ms") = 0.0,
        "The n x n matrix of a measure (van_rossum, victor_purpura, isi, spike, spike_sync) "
        "between every pair, "
        "on OpenMP threads without the GIL. start_ms and stop_ms are the Kreuz measures' window.");
    m.def(
        "psth",
        [](const py::iterable& trains, double start, double stop, double bin) {
            auto a = as_trains(trains);
            auto h = an::psth(a.trains, time_window{start, stop}, bin);
            return py::make_tuple(to_array(h.counts), to_array(h.rate_hz));
        },
        py::arg("trains"), py::arg("start_ms"), py::arg("stop_ms"), py::arg("bin_ms"),
        "Time histogram of trains: (counts, rate_hz) per bin.");
    m.def(
        "golomb_chi",
        [](const py::iterable& trains, double start, double stop, double bin) {
            auto a = as_trains(trains);
            return an::golomb_chi(a.trains, time_window{start, stop}, bin);
        },
        py::arg("trains"), py::arg("start_ms"), py::arg("stop_ms"), py::arg("bin_ms"),
        "Golomb's synchrony measure chi.");
    m.def(
        "correlation_matrix",
        [](const py::iterable& trains, double start, double stop, double bin) {
            auto a = as_trains(trains);
            return square(an::correlation_matrix(a.trains, time_window{start, stop}, bin),
                          a.trains.size());
        },
        py::arg("trains"), py::arg("start_ms"), py::arg("stop_ms"), py::arg("bin_ms"),
        "Pearson correlation of the binned counts of every pair (n x n).");
}

}  // namespace volley::python
