// volley.pipeline: the hybrid pipeline, Volley's main job, for Python (docs/demo.md,
// docs/python.md). run() is `volley demo --json` as a function: the same options (by the
// pipeline's names), the same figures as a dict, the same files under out_dir.

#include "bindings.hpp"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <volley/pipeline/pipeline.hpp>

namespace volley::python {

namespace {

py::dict run_pipeline(const std::string& out_dir, const std::string& cache_dir, const std::string& data_dir,
                      std::size_t images, const std::vector<std::int64_t>& timesteps, std::size_t epochs,
                      std::size_t train_images, double learning_rate, std::uint64_t train_seed, bool retrain,
                      std::size_t norm_images, double percentile, double v0, const std::string& readout,
                      std::size_t raster_image, std::int64_t raster_steps, int threads, std::uint64_t seed, int quantize,
                      std::int64_t hardware_timesteps, std::size_t hardware_images, std::size_t temporal_sequences,
                      int temporal_generations, bool seed_hand_built, const py::object& log) {
    pipeline::pipeline_options o;
    o.out_dir = out_dir;
    o.cache_dir = cache_dir;
    o.data_dir = data_dir;
    o.evaluation.images = images;
    o.evaluation.snn.timesteps = timesteps;
    o.evaluation.snn.readout = convert::parse_readout_rule("readout", readout);
    o.training.epochs = epochs;
    o.training.train_images = train_images;
    o.training.learning_rate = learning_rate;
    o.training.seed = train_seed;
    o.retrain = retrain;
    o.conversion.norm_images = norm_images;
    o.conversion.percentile = percentile;
    o.conversion.v0 = v0;
    o.raster_image = raster_image;
    o.raster_steps = raster_steps;
    o.threads = threads;
    o.seed = seed;
    o.hardware.bits = quantize;
    o.hardware.timesteps = hardware_timesteps;
    o.hardware.images = hardware_images;
    o.temporal.train_sequences = o.temporal.test_sequences = temporal_sequences;
    o.temporal.generations = temporal_generations;
    o.temporal.seed_hand_built = seed_hand_built;
    pipeline::pipeline_observer obs;
    if (!log.is_none())
        obs.log = [&log](const std::string& line) {
            py::gil_scoped_acquire gil;
            log(line);
        };
    nlohmann::json figures;
    {
        py::gil_scoped_release release;
        figures = pipeline::to_json(pipeline::run_pipeline(o, obs));
    }
    return from_json(figures);
}

}  // namespace

void bind_pipeline(py::module_& parent) {
    auto m = parent.def_submodule(
        "pipeline",
        "The hybrid pipeline, Volley's main job (docs/demo.md): a Fashion-MNIST CNN trained or reused from its cache, "
        "converted to a spiking network, evaluated at several T, its classifier head on danna2 and RISP, one image's "
        "spikes, and the CNN's output frame by frame into networks on the DANNA models (the temporal stage).");
    const pipeline::pipeline_options d;
    m.attr("fashion_mnist_classes") = std::vector<std::string>(std::begin(pipeline::fashion_mnist_classes),
                                                               std::end(pipeline::fashion_mnist_classes));
    m.def("run", &run_pipeline, py::arg("out_dir") = d.out_dir.string(), py::kw_only(), py::arg("cache_dir") = "",
          py::arg("data_dir") = d.data_dir.string(), py::arg("images") = d.evaluation.images,
          py::arg("timesteps") = d.evaluation.snn.timesteps, py::arg("epochs") = d.training.epochs,
          py::arg("train_images") = d.training.train_images, py::arg("learning_rate") = d.training.learning_rate,
          py::arg("train_seed") = d.training.seed, py::arg("retrain") = d.retrain,
          py::arg("norm_images") = d.conversion.norm_images, py::arg("percentile") = d.conversion.percentile,
          py::arg("v0") = d.conversion.v0, py::arg("readout") = convert::to_string(d.evaluation.snn.readout),
          py::arg("raster_image") = d.raster_image, py::arg("raster_steps") = d.raster_steps,
          py::arg("threads") = d.threads, py::arg("seed") = d.seed, py::arg("quantize") = d.hardware.bits,
          py::arg("hardware_timesteps") = d.hardware.timesteps, py::arg("hardware_images") = d.hardware.images,
          py::arg("temporal_sequences") = d.temporal.test_sequences,
          py::arg("temporal_generations") = d.temporal.generations, py::arg("seed_hand_built") = false,
          py::arg("log") = py::none(),
          R"doc(Runs the pipeline and returns its figures: the dict `volley demo --json` prints (without
peak_rss_bytes). Writes accuracy_vs_T.svg, raster.svg, results.h5, the head and temporal
networks and the temporal plots under out_dir; the model cache is cache_dir (default
out_dir/cache). images = 0 evaluates all 10,000 test images; hardware_timesteps = 0 and
temporal_sequences = 0 skip those stages. log, when given, is called with each progress line.
Raises volley.InvalidParameter (a bad option, named), volley.IoError (the data or an output),
and the stages' errors.)doc");
}

}  // namespace volley::python
