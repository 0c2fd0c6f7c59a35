// CNN-to-SNN conversion from Python (docs/conversion.md): read a Keras, Volley or exported
// PyTorch model file, run it, convert it with data-based normalisation, and evaluate the
// spiking network on images, as `volley convert` does.

#include "bindings.hpp"
#include "conversions.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>

#include <algorithm>

namespace volley::python {

namespace {

/// A model file read into a graph, with its path for messages.
struct py_cnn {
    convert::cnn_graph graph;
    std::string file;
};

/// (n, c, h, w) float32 images as a tensor; invalid_parameter when the shape is not the model's.
convert::tensor<float> as_images(const py::handle& obj, const py_cnn& model) {
    py::object arr =
        py::module_::import("numpy").attr("ascontiguousarray")(obj, py::arg("dtype") = "float32");
    auto b = py::reinterpret_borrow<py::buffer>(arr).request();
    const auto& in = model.graph.input_shape;
    const std::string shape = py::str(arr.attr("shape"));
    if (b.ndim != 4 || static_cast<std::size_t>(b.shape[1]) != in.c ||
        static_cast<std::size_t>(b.shape[2]) != in.h ||
        static_cast<std::size_t>(b.shape[3]) != in.w)
        throw invalid_parameter("images", "shape", shape,
                                "the model " + model.file + " takes (n, " + std::to_string(in.c) +
                                    ", " + std::to_string(in.h) + ", " + std::to_string(in.w) +
                                    ") images");
    convert::tensor<float> t(in.with_batch(static_cast<std::size_t>(b.shape[0])));
    const auto* p = static_cast<const float*>(b.ptr);
    std::copy(p, p + t.values.size(), t.values.begin());
    return t;
}

py::array to_numpy(const convert::tensor<float>& t, bool flat) {
    const auto& s = t.shape;
    std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(s.n), static_cast<py::ssize_t>(s.c)};
    if (!flat)
        shape.insert(shape.end(), {static_cast<py::ssize_t>(s.h), static_cast<py::ssize_t>(s.w)});
    else
        shape[1] = static_cast<py::ssize_t>(s.c * s.h * s.w);
    return new_array<float>(shape, t.values.data());
}

convert::conversion_options conversion_settings(const std::string& input, const std::string& reset,
                                                double v0, double max_rate, bool max_pool_as_avg) {
    convert::conversion_options c;
    if (reset == "subtract")
        c.reset = convert::reset_rule::subtract;
    else if (reset == "zero")
        c.reset = convert::reset_rule::zero;
    else
        throw invalid_parameter("convert", "reset", reset, "must be subtract or zero");
    if (input == "const")
        c.input = convert::input_coding::constant_current;
    else if (input == "poisson")
        c.input = convert::input_coding::poisson;
    else if (input == "bernoulli")
        c.input = convert::input_coding::bernoulli;
    else if (input == "ttfs")
        c.input = convert::input_coding::ttfs;
    else
        throw invalid_parameter("convert", "input", input,
                                "must be const, poisson, bernoulli or ttfs");
    c.v0 = v0;
    c.max_rate = max_rate;
    c.max_pool_as_avg = max_pool_as_avg;
    return c;
}

}  // namespace

void bind_convert(py::module_& m) {
    py::class_<py_cnn>(m, "CnnModel", R"doc(
A trained CNN read from a Keras .h5 (any Keras from 1.x to 3), a Volley .h5 or an exported
PyTorch model (docs/conversion-formats.md). Images are (n, c, h, w) float arrays.)doc")
        .def(py::init([](const std::filesystem::path& file) {
                 return py_cnn{convert::read_cnn(file), file.string()};
             }),
             py::arg("file"))
        .def_property_readonly("format", [](const py_cnn& c) { return c.graph.format; })
        .def_property_readonly(
            "input_shape",
            [](const py_cnn& c) {
                return py::make_tuple(c.graph.input_shape.c, c.graph.input_shape.h,
                                      c.graph.input_shape.w);
            },
            "(channels, height, width) of one image.")
        .def_property_readonly("parameter_count",
                               [](const py_cnn& c) { return c.graph.parameter_count(); })
        .def(
            "forward",
            [](const py_cnn& c, const py::object& images, int threads) {
                auto x = as_images(images, c);
                convert::tensor<float> logits;
                {
                    py::gil_scoped_release release;
                    logits = convert::analog_forward(c.graph, x, {.threads = threads});
                }
                return to_numpy(logits, true);
            },
            py::arg("images"), py::arg("threads") = 0, "The CNN's logits (n, classes).")
        .def(
            "reference",
            [](const py_cnn& c) -> py::object {
                auto ref = convert::read_stored_reference(c.file, c.graph.input_shape);
                if (!ref) return py::none();
                return py::make_tuple(to_numpy(ref->x, false), to_array(ref->y),
                                      to_numpy(ref->logits, true));
            },
            "The reference batch stored in the file (x, labels, logits), or None.")
        .def(
            "convert",
            [](const py_cnn& c, const py::object& norm_images, double percentile,
               const std::string& input, const std::string& reset, double v0, double max_rate,
               bool max_pool_as_avg) {
                convert::normalization_options norm;
                norm.percentile = percentile;
                auto x = as_images(norm_images, c);
                py::gil_scoped_release release;
                const auto scales = convert::compute_layer_scales(c.graph, x, norm);
                auto snn = convert::convert_to_snn(
                    c.graph, scales,
                    conversion_settings(input, reset, v0, max_rate, max_pool_as_avg));
                snn.source_file = c.file;
                return snn;
            },
            py::arg("norm_images"), py::arg("percentile") = 99.9, py::arg("input") = "const",
            py::arg("reset") = "subtract", py::arg("v0") = 0.0, py::arg("max_rate") = 1.0,
            py::arg("max_pool_as_avg") = false,
            "Converts to a spiking network with λ per layer from the percentile of the activations "
            "on "
            "norm_images (Rueckauer et al. 2017).");

    py::class_<convert::converted_snn>(m, "ConvertedSnn",
                                       "A converted spiking network and how to feed it images.")
        .def_readonly("network", &convert::converted_snn::network)
        .def_property_readonly("layers",
                               [](const convert::converted_snn& s) {
                                   std::vector<std::string> names;
                                   for (const auto& l : s.layers) names.push_back(l.name);
                                   return names;
                               })
        .def_property_readonly("classes", &convert::converted_snn::classes)
        .def(
            "evaluate",
            [](const convert::converted_snn& s, const py_cnn& model, const py::object& images,
               const py::object& labels, std::vector<std::int64_t> timesteps, int threads,
               std::uint64_t seed, const std::string& readout, const std::string& backend, std::size_t batch) {
                auto x = as_images(images, model);
                std::vector<std::int32_t> y;
                if (!labels.is_none()) y = py::cast<std::vector<std::int32_t>>(labels);
                convert::evaluation_options o;
                o.timesteps = std::move(timesteps);
                o.threads = threads;
                o.seed = seed;
                o.readout = convert::parse_readout_rule("readout", readout);
                o.backend = backend == "auto" ? snn::backend_kind::cpu : backend_from_name(backend);
                o.batch = batch;
                convert::evaluation_result r;
                std::vector<std::int32_t> cnn;
                {
                    py::gil_scoped_release release;
                    cnn =
                        convert::argmax_rows(convert::analog_forward(model.graph, x, {.threads = threads}));
                    r = convert::evaluate_snn(s, x.values, y, cnn, o);
                }
                py::dict out;
                py::list checkpoints;
                for (const auto& c : r.checkpoints) {
                    py::dict d;
                    d["timesteps"] = c.timesteps;
                    d["accuracy"] = c.accuracy;
                    d["agreement"] = c.agreement;
                    d["spikes_per_image"] = c.spikes_per_image;
                    d["synops_per_image"] = c.synops_per_image;
                    checkpoints.append(d);
                }
                out["images"] = r.images;
                out["checkpoints"] = checkpoints;
                out["predictions"] = r.predictions;
                out["cnn_predictions"] = cnn;
                out["wall_s"] = r.wall_s;
                return out;
            },
            py::arg("model"), py::arg("images"), py::arg("labels") = py::none(),
            py::arg("timesteps") = std::vector<std::int64_t>{8, 16, 32, 64, 128, 256},
            py::arg("threads") = 1, py::arg("seed") = 1, py::arg("readout") = "count", py::arg("backend") = "cpu",
            py::arg("batch") = 0,
            "Runs the spiking network on images (as `volley convert`): per checkpoint T the "
            "accuracy (NaN without "
            "labels), the agreement with the CNN's predictions, spikes and synaptic events per "
            "image. backend: \"cpu\", \"portable\" or \"cuda\"; batch: images per simulation "
            "(0: 1 on cpu, 64 on a device; the same figures).");
}

}  // namespace volley::python
