// The hybrid pipeline (see pipeline.hpp).

#include <volley/pipeline/pipeline.hpp>

#include <volley/pipeline/accuracy_plot.hpp>

#include <volley/error.hpp>

#include <chrono>
#include <cstdio>
#include <system_error>

namespace volley::pipeline {

const char* const fashion_mnist_classes[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                               "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

namespace {

/// Wall seconds since construction or the last lap().
class stopwatch {
public:
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        return s;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

void say(const pipeline_observer& obs, const std::string& line) {
    if (obs.log) obs.log(line);
}

/// The options every stage takes from the pipeline's: threads, seed, the output folder.
void apply_common(pipeline_options& o) {
    if (o.threads < 1) throw invalid_parameter("pipeline", "threads", std::to_string(o.threads), "must be >= 1");
    if (o.raster_steps < 1)
        throw invalid_parameter("pipeline", "raster_steps", std::to_string(o.raster_steps), "must be >= 1");
    if (o.cache_dir.empty()) o.cache_dir = o.out_dir / "cache";
    o.conversion.threads = o.threads;
    o.evaluation.snn.threads = o.threads;
    o.evaluation.snn.seed = o.seed;
    o.hardware.threads = o.threads;
    o.hardware.out_dir = o.out_dir;
    o.temporal.threads = o.threads;
    o.temporal.seed = o.seed;
    o.temporal.out_dir = o.out_dir;
}

/// What results.h5 holds, from the stages' results.
results_record make_record(const pipeline_result& p) {
    const auto& o = p.options;
    results_record r;
    r.model_file = p.model.file.string();
    r.model_sha256 = p.model.sha256;
    r.model_source = p.model.from_cache ? "cache" : "trained";
    r.training = o.training.command_line();
    r.data = "fashion-mnist test, first " + std::to_string(p.evaluation.images) + " images (" + o.data_dir.string() + ")";
    for (const auto& c : p.evaluation.snn.checkpoints) {
        r.timesteps.push_back(c.timesteps);
        r.snn_accuracy.push_back(c.accuracy);
        r.agreement.push_back(c.agreement);
        r.spikes_per_image.push_back(c.spikes_per_image);
        r.synops_per_image.push_back(c.synops_per_image);
    }
    r.cnn_accuracy = p.evaluation.cnn_accuracy;
    r.images = p.evaluation.images;
    r.layer_names = p.layer_names;
    r.layer_neurons = p.layer_neurons;
    r.layer_lambda = p.layer_lambda;
    for (const auto& l : p.evaluation.snn.layers) r.layer_rate.push_back(l.spikes_per_step);
    r.raster_image = o.raster_image;
    r.raster_label = p.raster_label;
    r.raster_steps = o.raster_steps;
    r.spikes = p.raster.layers;
    if (p.hardware.ran()) {
        r.hardware_bits = p.hardware.bits;
        r.hardware_timesteps = p.hardware.timesteps;
        r.hardware_images = p.hardware.images;
        r.integer_accuracy = p.hardware.integer_accuracy;
        r.float_accuracy_at_hardware_T = p.hardware.float_accuracy;
        r.hardware = p.hardware.processors;
    }
    return r;
}

}  // namespace

pipeline_result run_pipeline(pipeline_options options, const pipeline_observer& obs) {
    apply_common(options);
    pipeline_result p;
    p.options = options;
    const auto& o = p.options;
    std::error_code ec;
    std::filesystem::create_directories(o.out_dir, ec);
    if (ec) throw io_error(o.out_dir.string(), "cannot create the output folder: " + ec.message());
    stopwatch total, stage;

    // 1. Data and the trained CNN.
    const auto train = convert::load_fashion_mnist(o.data_dir, "train");
    const auto test = convert::load_fashion_mnist(o.data_dir, "test");
    p.test_images_all = test.count();
    p.stages.emplace_back("load_data_s", stage.lap());
    if (o.raster_image >= test.count())
        throw invalid_parameter("pipeline", "raster_image", std::to_string(o.raster_image),
                                "must be below the number of test images (" + std::to_string(test.count()) + ")");
    say(obs, "Volley demo: Fashion-MNIST CNN -> spiking network on the engine (" + std::to_string(o.threads) +
                 (o.threads == 1 ? " thread)" : " threads)"));
    char line[512];
    const auto on_epoch = [&](const convert::epoch_record& e) {
        if (obs.epoch) obs.epoch(e);
        std::snprintf(line, sizeof line, "  epoch %zu: train loss %.4f, %.0f images/s", e.epoch, e.train_loss,
                      e.images_per_s);
        say(obs, line);
    };
    p.model = obtain_model(o.cache_dir, o.training, train, test, o.threads, o.retrain, obs.training_step, on_epoch);
    p.stages.emplace_back(p.model.from_cache ? "cache_check_s" : "train_s", stage.lap());
    if (p.model.from_cache)
        std::snprintf(line, sizeof line, "model: reused the cached %s (SHA-256 %.16s..., checksum matches; trained with `%s`)",
                      p.model.file.string().c_str(), p.model.sha256.c_str(), o.training.command_line().c_str());
    else
        std::snprintf(line, sizeof line, "model: trained now (%s): `%s` on %zu images in %.1f s; cached as %s (SHA-256 %.16s...)",
                      p.model.reason.c_str(), o.training.command_line().c_str(), p.model.train_images, p.model.train_s,
                      p.model.file.string().c_str(), p.model.sha256.c_str());
    say(obs, line);

    // 2. Read back as users' models are read, normalised on the training set and converted.
    const auto model = convert_model(p.model.file, train, o.conversion);
    p.norm_images = model.norm_images;
    for (const auto& l : model.net.layers) {
        p.layer_names.push_back(l.name);
        p.layer_neurons.push_back(l.size());
        p.layer_lambda.push_back(l.lambda);
    }
    p.stages.emplace_back("normalise_convert_s", stage.lap());
    std::snprintf(line, sizeof line,
                  "conversion: p%g normalisation on %zu training images, reset by subtraction, constant-current input, "
                  "v0 %g, %s readout",
                  o.conversion.percentile, model.norm_images, o.conversion.v0,
                  convert::to_string(o.evaluation.snn.readout).c_str());
    say(obs, line);
    std::string ts;
    for (const auto t : o.evaluation.snn.timesteps) ts += (ts.empty() ? "" : ",") + std::to_string(t);
    const std::size_t n = o.evaluation.images == 0 ? test.count() : std::min(o.evaluation.images, test.count());
    std::snprintf(line, sizeof line, "evaluating the SNN on %zu of the %zu test images at T = %s", n, test.count(),
                  ts.c_str());
    say(obs, line);

    // 3. The CNN and the SNN on the engine, read at every T in one run.
    auto eval = o.evaluation;
    eval.snn.progress = obs.evaluation_progress;
    p.evaluation = evaluate_model(model, test, eval);
    p.stages.emplace_back("cnn_forward_s", p.evaluation.cnn_forward_s);
    p.stages.emplace_back("snn_evaluation_s", stage.lap() - p.evaluation.cnn_forward_s);

    // 3b. The quantised classifier head on danna2 and RISP.
    if (o.hardware.timesteps > 0) {
        std::snprintf(line, sizeof line, "running the %d-bit classifier head on danna2 and RISP at T = %lld for %zu images",
                      o.hardware.bits, static_cast<long long>(o.hardware.timesteps),
                      o.hardware.images == 0 ? n : std::min(o.hardware.images, n));
        say(obs, line);
    }
    p.hardware = run_hardware_stage(model, p.evaluation, test, o.hardware);
    for (const auto& d : p.hardware.processors) p.outputs.emplace_back(d.head_file);
    p.stages.emplace_back("hardware_head_s", stage.lap());

    // 4. One image's spikes, layer by layer.
    const std::span<const float> pixels(test.image(o.raster_image), test.image_size());
    p.raster = record_image_spikes(model.net, pixels, o.raster_steps, o.seed, o.evaluation.snn.readout);
    p.raster_label = test.labels[o.raster_image];
    std::snprintf(line, sizeof line, "Test image %zu (%s), %lld steps of 1 ms: SNN says %s", o.raster_image,
                  fashion_mnist_classes[p.raster_label], static_cast<long long>(o.raster_steps),
                  fashion_mnist_classes[p.raster.prediction]);
    write_image_raster(o.out_dir / "raster.svg", model.net, p.raster, o.raster_steps, line);
    p.stages.emplace_back("raster_s", stage.lap());

    // 4b. The temporal stage: sequences of frames, the CNN's output into networks on danna2.
    if (o.temporal.test_sequences > 0) {
        auto to = o.temporal;
        to.train_sequences = std::max<std::size_t>(2, to.train_sequences);
        to.log = obs.log;
        p.temporal = run_temporal_stage(model.net, train, test, to);
    }
    p.stages.emplace_back("temporal_s", stage.lap());

    // 5. The accuracy plot and results.h5.
    accuracy_curve curve;
    curve.title = "Fashion-MNIST: converted SNN accuracy against T";
    for (const auto& c : p.evaluation.snn.checkpoints) {
        curve.timesteps.push_back(c.timesteps);
        curve.snn_accuracy.push_back(c.accuracy);
    }
    curve.cnn_accuracy = p.evaluation.cnn_accuracy;
    curve.note = std::to_string(n) + " test images; " + o.training.command_line();
    write_accuracy_svg(o.out_dir / "accuracy_vs_T.svg", curve);
    p.record = make_record(p);
    write_results_file(o.out_dir / "results.h5", p.record);
    p.outputs.insert(p.outputs.begin(), {o.out_dir / "accuracy_vs_T.svg", o.out_dir / "raster.svg", o.out_dir / "results.h5"});
    if (p.temporal) p.outputs.insert(p.outputs.end(), p.temporal->outputs.begin(), p.temporal->outputs.end());
    p.stages.emplace_back("write_outputs_s", stage.lap());
    p.total_s = total.lap();
    return p;
}

}  // namespace volley::pipeline
