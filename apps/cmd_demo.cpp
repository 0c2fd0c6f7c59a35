// `volley demo`: the main job (docs/demo.md). Trains the small reference CNN of CONVERSION.md on
// Fashion-MNIST (or reuses a cached one whose checksum matches), converts it to a spiking network
// on the engine, evaluates it at several T in one run, and writes a summary table,
// accuracy_vs_T.svg, a raster of one image and results.h5.

#include "accuracy_plot.hpp"
#include "cli_common.hpp"
#include "conversion_cli.hpp"
#include "demo_image_raster.hpp"
#include "demo_model_cache.hpp"
#include "demo_results_file.hpp"
#include "demo_temporal.hpp"

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/convert/head_export.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/convert/snn_quantization.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

namespace volley::cli {

namespace {

struct demo_options {
    std::string out_dir = "out/demo", cache_dir;
    std::string data_dir{convert::default_fashion_mnist_dir};
    std::string timesteps = "8,16,32,64,128,256";
    demo_training_settings training;
    bool retrain = false, full = false;
    std::size_t limit = 4000, norm_images = 10000;
    double percentile = 99.9;
    double v0 = 0.5;                      ///< initial membrane, in units of the threshold
    std::string readout = "membrane";     ///< count or membrane (convert::readout_rule)
    std::int64_t raster_steps = 64;
    std::size_t raster_image = 0;
    int threads = 0;
    std::uint64_t seed = 1;
    int quantize = 8;                     ///< bits of the integer mode of the hardware head
    std::int64_t hardware_timesteps = 32; ///< T of the hardware head run; 0: skip it
    std::size_t hardware_images = 500;    ///< images of the hardware head run (the first of the subset; 0: all)
    std::size_t temporal_sequences = 300;  ///< test sequences per question of the temporal stage (0: skip it)
    int temporal_generations = 8;          ///< EONS generations per question
    bool seed_hand_built = false;          ///< the temporal stage's EONS starts from the hand-built networks
    bool json = false, quiet = false;
};

constexpr const char* class_names[10] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                         "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

/// Stage timer: wall seconds since construction or the last lap().
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

convert::tensor<float> as_tensor(const convert::image_dataset& d) {
    convert::tensor<float> t({d.count(), d.channels, d.height, d.width});
    t.values = d.pixels;
    return t;
}

double fraction_equal(std::span<const std::int32_t> a, std::span<const std::int32_t> b) {
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    return a.empty() ? 0.0 : static_cast<double>(same) / static_cast<double>(a.size());
}

nlohmann::json temporal_json(const std::optional<demo_temporal_result>& t) {
    if (!t) return {{"available", false}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : t->rows)
        rows.push_back({{"question", r.question},        {"started_from", r.started_from}, {"accuracy", r.accuracy},
                        {"oracle_accuracy", r.oracle_accuracy}, {"ideal_bound", r.ideal_bound},
                        {"hand_built", r.hand_built},    {"gru", r.gru},
                        {"gru_parameters", r.gru_parameters}, {"neurons", r.neurons},
                        {"hand_built_neurons", r.hand_built_neurons}, {"hand_built_synapses", r.hand_built_synapses},
                        {"synapses", r.synapses},        {"cycles_per_sequence", r.cycles},
                        {"events_per_sequence", r.events}, {"energy_j_per_sequence", r.energy_j},
                        {"grid_placed", r.grid_placed},  {"grid_elements", r.grid_elements},
                        {"grid_differences", r.grid_differences}});
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& f : t->outputs) outputs.push_back(f.string());
    return {{"available", true},          {"questions", rows},
            {"features_s", t->features_s}, {"feature_images", t->feature_images},
            {"sequences_per_s", t->sequences_per_s}, {"eons_evaluations_per_s", t->evaluations_per_s},
            {"outputs", outputs}};
}

void print_temporal(const std::optional<demo_temporal_result>& t) {
    if (!t) return;
    std::printf("\ntemporal analysis on danna2 (CNN output per frame, 8 frames a sequence; accuracy on test sequences)\n");
    std::printf("%-8s  %9s  %9s  %9s  %10s  %9s  %8s  %9s  %11s  %12s  %12s\n", "question", "evolved", "oracle", "ideal",
                "hand-built", "GRU", "neurons", "synapses", "hand-built", "DANNA grid", "energy/seq");
    for (const auto& r : t->rows) {
        char grid[32] = "unroutable";
        if (r.grid_placed)
            std::snprintf(grid, sizeof grid, "%lld el.%s", static_cast<long long>(r.grid_elements),
                          r.grid_differences == 0 ? "" : " DIFF");
        char hand[32];
        std::snprintf(hand, sizeof hand, "%lld/%lld", static_cast<long long>(r.hand_built_neurons),
                      static_cast<long long>(r.hand_built_synapses));
        std::printf("%-8s  %8.2f%%  %8.2f%%  %8.2f%%  %9.2f%%  %8.2f%%  %8lld  %9lld  %11s  %12s  %10.3g J\n",
                    r.question.c_str(), 100 * r.accuracy, 100 * r.oracle_accuracy, 100 * r.ideal_bound,
                    100 * r.hand_built, 100 * r.gru, static_cast<long long>(r.neurons),
                    static_cast<long long>(r.synapses), hand, grid, r.energy_j);
    }
    const bool from_hand = !t->rows.empty() && t->rows.front().started_from == "hand-built";
    std::printf("(evolved: %s, then EONS on the CNN's training features; oracle: the same network "
                "on the true labels; ideal: exact logic on the CNN's per-frame predictions; GRU: %zu parameters;\n"
                " hand-built: the reference network built by hand from motifs, its accuracy and neurons/synapses; "
                "DANNA grid: elements after place and route, answers equal to danna2's on every test sequence unless DIFF;\n"
                " energy/seq: from the danna2 model's assumed per-event energies (docs/danna.md), not a measurement; "
                "%.0f sequences/s on danna2, %.0f EONS evaluations/s)\n",
                from_hand ? "from the hand-built network (--seed-hand-built)"
                          : "from the network EONS designed from random networks (volley evolve on danna2, oracle "
                            "features, population 100 x 300 generations; temporal/networks)",
                t->rows.empty() ? std::size_t{0} : t->rows.front().gru_parameters, t->sequences_per_s,
                t->evaluations_per_s);
}

void run_demo(const demo_options& o) {
    const auto timesteps = parse_timesteps(o.timesteps);
    const auto readout = convert::parse_readout_rule("--readout", o.readout);
    if (o.raster_steps < 1)
        throw invalid_parameter("--raster-steps", "raster steps", std::to_string(o.raster_steps), "must be >= 1");
    if (!(o.percentile > 0 && o.percentile <= 100))
        throw invalid_parameter("--percentile", "percentile", std::to_string(o.percentile), "must be in (0, 100]");
    const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const std::filesystem::path out_dir(o.out_dir);
    const std::filesystem::path cache_dir = o.cache_dir.empty() ? out_dir / "cache" : std::filesystem::path(o.cache_dir);
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw io_error(out_dir.string(), "cannot create the output folder: " + ec.message());
    std::FILE* log = o.json ? stderr : stdout;
    const bool talk = !o.quiet;
    const bool bar = talk && stderr_is_terminal();
    stopwatch total, stage;
    std::vector<std::pair<std::string, double>> stages;  // wall time per stage, in order

    // 1. Data and the trained CNN.
    const auto train = convert::load_fashion_mnist(o.data_dir, "train");
    const auto test_all = convert::load_fashion_mnist(o.data_dir, "test");
    stages.emplace_back("load_data_s", stage.lap());
    if (o.raster_image >= test_all.count())
        throw invalid_parameter("--raster-image", "raster image", std::to_string(o.raster_image),
                                "must be below the number of test images (" + std::to_string(test_all.count()) + ")");
    if (talk)
        std::fprintf(log, "Volley demo: Fashion-MNIST CNN -> spiking network on the engine (%d threads)\n", threads);
    const auto model = obtain_demo_model(
        cache_dir, o.training, train, test_all, threads, o.retrain,
        [&](const convert::training_progress& p) {
            if (bar)
                std::fprintf(stderr, "\repoch %zu/%zu: %3.0f%%  loss %.4f  %.0f img/s ", p.epoch, o.training.epochs,
                             100.0 * static_cast<double>(p.step) / static_cast<double>(p.steps_per_epoch), p.mean_loss,
                             p.images_per_s);
        },
        [&](const convert::epoch_record& e) {
            if (bar) std::fputs("\r\033[K", stderr);
            if (talk)
                std::fprintf(log, "  epoch %zu: train loss %.4f, %.0f images/s\n", e.epoch, e.train_loss, e.images_per_s);
            std::fflush(log);
        });
    stages.emplace_back(model.from_cache ? "cache_check_s" : "train_s", stage.lap());
    if (talk) {
        if (model.from_cache)
            std::fprintf(log, "model: reused the cached %s (SHA-256 %.16s..., checksum matches; trained with `%s`)\n",
                         model.file.string().c_str(), model.sha256.c_str(), o.training.command_line().c_str());
        else
            std::fprintf(log, "model: trained now (%s): `%s` on %zu images in %.1f s; cached as %s (SHA-256 %.16s...)\n",
                         model.reason.c_str(), o.training.command_line().c_str(), model.train_images, model.train_s,
                         model.file.string().c_str(), model.sha256.c_str());
        std::fflush(log);
    }

    // 2. Read it back as users' models are read, normalise on the training set and convert.
    const auto graph = convert::read_cnn(model.file);
    convert::normalization_options norm;
    norm.percentile = o.percentile;
    norm.max_images = o.norm_images;
    norm.forward.threads = threads;
    const auto norm_set = train.head(o.norm_images);
    const auto scales = convert::compute_layer_scales(graph, as_tensor(norm_set), norm);
    const auto net = convert::convert_to_snn(graph, scales, convert::conversion_options{.v0 = o.v0});
    stages.emplace_back("normalise_convert_s", stage.lap());

    const auto test = test_all.head(o.full ? 0 : o.limit);
    const std::size_t n = test.count();
    const std::vector<std::int32_t> labels(test.labels.begin(), test.labels.end());
    const std::vector<std::int32_t> labels_all(test_all.labels.begin(), test_all.labels.end());
    const auto cnn_pred_all = argmax_rows(convert::analog_forward(graph, as_tensor(test_all), {.threads = threads}));
    const double cnn_acc_all = fraction_equal(cnn_pred_all, labels_all);
    const std::span<const std::int32_t> cnn_pred(cnn_pred_all.data(), n);
    const double cnn_acc = fraction_equal(cnn_pred, labels);
    stages.emplace_back("cnn_forward_s", stage.lap());
    if (talk) {
        std::fprintf(log,
                     "conversion: p%g normalisation on %zu training images, reset by subtraction, constant-current "
                     "input, v0 %g, %s readout\n",
                     o.percentile, norm_set.count(), o.v0, o.readout.c_str());
        std::fprintf(log, "evaluating the SNN on %zu of the %zu test images%s at T = %s\n", n, test_all.count(),
                     o.full ? "" : " (--full for all)", o.timesteps.c_str());
        std::fflush(log);
    }

    // 3. The SNN on the engine, read at every T in one run.
    convert::evaluation_options eval;
    eval.timesteps = timesteps;
    eval.threads = threads;
    eval.seed = o.seed;
    eval.readout = readout;
    std::mutex bar_mutex;
    if (bar)
        eval.progress = [&](std::size_t done, std::size_t count) {
            if (done % 50 != 0 && done != count) return;
            std::lock_guard lock(bar_mutex);
            std::fprintf(stderr, "\r%zu/%zu images", done, count);
            if (done == count) std::fputs("\r\033[K", stderr);
        };
    const auto result = convert::evaluate_snn(net, test.pixels, labels, cnn_pred, eval);
    stages.emplace_back("snn_evaluation_s", stage.lap());

    // 3b. The quantised classifier head on danna2 and RISP, driven by the engine's spikes of the
    // layer below it, against the engine's integer mode (docs/conversion.md).
    std::string hardware_note;
    std::vector<convert::head_check_result> checks;
    std::vector<convert::head_network> heads;
    std::optional<convert::quantized_snn> quant;
    double integer_accuracy = std::nan("");
    const std::size_t hw_images = o.hardware_images == 0 ? n : std::min(o.hardware_images, n);
    if (o.hardware_timesteps > 0) {
        try {
            quant = convert::quantize_snn(net, {.bits = o.quantize,
                                                .head_max_threshold = convert::head_threshold_limit(convert::head_hardware::danna2)});
            for (const auto h : {convert::head_hardware::danna2, convert::head_hardware::risp}) {
                heads.push_back(convert::export_head(*quant, h));
                hw::save_tennlab_network(heads.back().network, (out_dir / ("head_" + convert::to_string(h) + ".json")).string());
            }
            if (talk) {
                std::fprintf(log, "running the %d-bit classifier head on danna2 and RISP at T = %lld for %zu images\n",
                             o.quantize, static_cast<long long>(o.hardware_timesteps), hw_images);
                std::fflush(log);
            }
            checks = convert::check_heads_on_hardware(
                *quant, heads, std::span<const float>(test.pixels).first(hw_images * test.image_size()),
                {.timesteps = o.hardware_timesteps, .threads = threads});
            integer_accuracy = fraction_equal(checks.front().engine_predictions,
                                              std::span<const std::int32_t>(labels).first(hw_images));
        } catch (const volley::error& e) {
            hardware_note = std::string("not run: ") + e.what();
            checks.clear();
        }
    } else {
        hardware_note = "skipped (--hardware-timesteps 0)";
    }
    stages.emplace_back("hardware_head_s", stage.lap());

    // 4. One image's spikes, layer by layer.
    const std::size_t raster_index = o.raster_image;
    const std::span<const float> raster_pixels(test_all.image(raster_index), test_all.image_size());
    const auto rec = record_image_spikes(net, raster_pixels, o.raster_steps, o.seed, readout);
    const int label = test_all.labels[raster_index];
    char raster_title[256];
    std::snprintf(raster_title, sizeof raster_title,
                  "Test image %zu (%s), %lld steps of 1 ms: SNN says %s",
                  raster_index, class_names[label], static_cast<long long>(o.raster_steps),
                  class_names[rec.prediction]);
    write_image_raster(out_dir / "raster.svg", net, rec, o.raster_steps, raster_title);
    stages.emplace_back("raster_s", stage.lap());

    // 4b. The temporal stage: sequences of frames, the CNN's output into networks on danna2.
    std::optional<demo_temporal_result> temporal;
    if (o.temporal_sequences > 0) {
        demo_temporal_options to;
        to.test_sequences = o.temporal_sequences;
        to.train_sequences = std::max<std::size_t>(2, o.temporal_sequences);
        to.generations = o.temporal_generations;
        to.seed_hand_built = o.seed_hand_built;
        to.threads = threads;
        to.seed = o.seed;
        to.out_dir = out_dir;
        if (talk)
            to.log = [&](const std::string& line) {
                std::fprintf(log, "%s\n", line.c_str());
                std::fflush(log);
            };
        temporal = run_demo_temporal(net, train, test_all, to);
    }
    stages.emplace_back("temporal_s", stage.lap());

    // 5. The plot and results.h5.
    accuracy_curve curve;
    curve.title = "Fashion-MNIST: converted SNN accuracy against T";
    curve.timesteps = timesteps;
    for (const auto& c : result.checkpoints) curve.snn_accuracy.push_back(c.accuracy);
    curve.cnn_accuracy = cnn_acc;
    curve.note = std::to_string(n) + " test images; " + o.training.command_line();
    write_accuracy_svg(out_dir / "accuracy_vs_T.svg", curve);

    demo_results r;
    r.model_file = model.file.string();
    r.model_sha256 = model.sha256;
    r.model_source = model.from_cache ? "cache" : "trained";
    r.training = o.training.command_line();
    r.data = "fashion-mnist test, first " + std::to_string(n) + " images (" + o.data_dir + ")";
    r.timesteps = timesteps;
    for (const auto& c : result.checkpoints) {
        r.snn_accuracy.push_back(c.accuracy);
        r.agreement.push_back(c.agreement);
        r.spikes_per_image.push_back(c.spikes_per_image);
        r.synops_per_image.push_back(c.synops_per_image);
    }
    r.cnn_accuracy = cnn_acc;
    r.images = n;
    for (std::size_t l = 0; l < net.layers.size(); ++l) {
        r.layer_names.push_back(net.layers[l].name);
        r.layer_neurons.push_back(net.layers[l].size());
        r.layer_lambda.push_back(net.layers[l].lambda);
        r.layer_rate.push_back(result.layers[l].spikes_per_step);
    }
    r.raster_image = raster_index;
    r.raster_label = label;
    r.raster_steps = o.raster_steps;
    r.spikes = rec.layers;
    // The float SNN on the same images at the hardware's T (when T is a checkpoint).
    double float_at_hw_T = std::nan("");
    for (std::size_t c = 0; c < result.checkpoints.size(); ++c)
        if (result.checkpoints[c].timesteps == o.hardware_timesteps)
            float_at_hw_T = fraction_equal(std::span<const std::int32_t>(result.predictions[c]).first(hw_images),
                                           std::span<const std::int32_t>(labels).first(hw_images));
    if (!checks.empty()) {
        r.hardware_bits = quant->bits;
        r.hardware_timesteps = o.hardware_timesteps;
        r.hardware_images = hw_images;
        r.integer_accuracy = integer_accuracy;
        r.float_accuracy_at_hardware_T = float_at_hw_T;
        for (std::size_t h = 0; h < checks.size(); ++h) {
            const auto& c = checks[h];
            const double ni = static_cast<double>(std::max<std::size_t>(c.images, 1));
            demo_hardware_result d;
            d.processor = convert::to_string(heads[h].hardware);
            d.head_file = (out_dir / ("head_" + d.processor + ".json")).string();
            d.agreement = static_cast<double>(c.same_prediction) / ni;
            d.same_counts = static_cast<double>(c.same_counts) / ni;
            d.same_charges = static_cast<double>(c.same_charges) / ni;
            d.charge_beyond_range = static_cast<double>(c.charge_beyond_range) / ni;
            d.neurons = c.cost.neurons;
            d.synapses = c.cost.synapses;
            d.cycles_per_image = static_cast<double>(c.cost.cycles) / ni;
            d.time_s_per_image = c.cost.time_s() / ni;
            d.energy_j_per_image = c.cost.energy_j() / ni;
            for (const auto& [kind, count] : c.cost.events)
                if (count != 0) d.events_per_image.emplace_back(kind, static_cast<double>(count) / ni);
            r.hardware.push_back(std::move(d));
        }
    }
    write_demo_results(out_dir / "results.h5", r);
    stages.emplace_back("write_outputs_s", stage.lap());
    const double total_s = total.lap();
    const double images_per_s = result.wall_s > 0 ? static_cast<double>(n) / result.wall_s : 0.0;
    nlohmann::json hardware_json = {{"available", !r.hardware.empty()}, {"note", hardware_note}};
    if (!r.hardware.empty()) {
        hardware_json["bits"] = r.hardware_bits;
        hardware_json["T"] = r.hardware_timesteps;
        hardware_json["images"] = r.hardware_images;
        hardware_json["integer_accuracy"] = r.integer_accuracy;
        hardware_json["float_accuracy"] = std::isnan(float_at_hw_T) ? nlohmann::json(nullptr) : nlohmann::json(float_at_hw_T);
        for (std::size_t h = 0; h < r.hardware.size(); ++h) {
            const auto& d = r.hardware[h];
            nlohmann::json events = nlohmann::json::object();
            for (const auto& [kind, v] : d.events_per_image) events[kind] = v;
            hardware_json[d.processor] = {{"head_file", d.head_file},
                                          {"agreement", d.agreement},
                                          {"same_counts", d.same_counts},
                                          {"same_charges", d.same_charges},
                                          {"charge_beyond_range", d.charge_beyond_range},
                                          {"neurons", d.neurons},
                                          {"synapses", d.synapses},
                                          {"cycles_per_image", d.cycles_per_image},
                                          {"time_s_per_image", d.time_s_per_image},
                                          {"energy_j_per_image", d.energy_j_per_image},
                                          {"events_per_image", events},
                                          {"cost", checks[h].cost.to_json()}};
        }
    }

    if (o.json) {
        nlohmann::json ts = nlohmann::json::array();
        for (const auto& c : result.checkpoints)
            ts.push_back({{"T", c.timesteps},
                          {"accuracy", c.accuracy},
                          {"agreement", c.agreement},
                          {"spikes_per_image", c.spikes_per_image},
                          {"synops_per_image", c.synops_per_image}});
        nlohmann::json layers = nlohmann::json::array();
        for (std::size_t l = 0; l < net.layers.size(); ++l)
            layers.push_back({{"name", r.layer_names[l]},
                              {"neurons", r.layer_neurons[l]},
                              {"lambda", r.layer_lambda[l]},
                              {"spikes_per_step", r.layer_rate[l]}});
        nlohmann::json stage_json = nlohmann::json::object();
        for (const auto& [name, s] : stages) stage_json[name] = s;
        stage_json["total_s"] = total_s;
        print_json({{"model",
                     {{"file", r.model_file},
                      {"sha256", r.model_sha256},
                      {"source", r.model_source},
                      {"reason", model.reason},
                      {"training", r.training},
                      {"train_images", model.train_images},
                      {"train_s", model.train_s}}},
                    {"cnn_accuracy", cnn_acc},
                    {"cnn_accuracy_all_test", cnn_acc_all},
                    {"images", n},
                    {"threads", threads},
                    {"v0", o.v0},
                    {"readout", o.readout},
                    {"timesteps", ts},
                    {"layers", layers},
                    {"raster", {{"image", raster_index}, {"label", label}, {"steps", o.raster_steps},
                                {"prediction", rec.prediction}, {"spikes", rec.spikes}}},
                    {"stages", stage_json},
                    {"images_per_s", images_per_s},
                    {"synops_per_s", result.synops_per_s},
                    {"hardware", hardware_json},
                    {"temporal", temporal_json(temporal)},
                    {"outputs",
                     {(out_dir / "accuracy_vs_T.svg").string(), (out_dir / "raster.svg").string(),
                      (out_dir / "results.h5").string()}},
                    {"peak_rss_bytes", peak_rss_bytes()}});
        return;
    }

    std::printf("\nCNN accuracy %.2f%% on these %zu images (%.2f%% on all %zu test images)\n", 100 * cnn_acc, n,
                100 * cnn_acc_all, test_all.count());
    std::printf("%6s  %12s  %10s  %14s  %15s\n", "T", "SNN accuracy", "agreement", "spikes/image", "synops/image");
    for (const auto& c : result.checkpoints)
        std::printf("%6lld  %11.2f%%  %9.2f%%  %14.0f  %15.0f\n", static_cast<long long>(c.timesteps), 100 * c.accuracy,
                    100 * c.agreement, c.spikes_per_image, c.synops_per_image);
    std::printf("\n%-16s  %9s  %10s  %12s\n", "layer", "neurons", "lambda", "rate @ T max");
    for (std::size_t l = 0; l < net.layers.size(); ++l)
        std::printf("%-16s  %9llu  %10.4g  %12.4f\n", r.layer_names[l].c_str(),
                    static_cast<unsigned long long>(r.layer_neurons[l]), r.layer_lambda[l], r.layer_rate[l]);
    std::printf("\n%-22s  %8s\n", "stage", "wall [s]");
    for (const auto& [name, value] : stages)
        std::printf("%-22s  %8.2f\n", name.substr(0, name.size() - 2).c_str(), value);
    std::printf("%-22s  %8.2f\n", "total", total_s);
    std::printf("\nSNN: %.1f images/s, %.3g synaptic events/s on %d threads; peak RSS %.0f MB\n", images_per_s,
                result.synops_per_s, threads, static_cast<double>(peak_rss_bytes()) / 1e6);
    if (r.hardware.empty()) {
        std::printf("hardware stage (danna2, RISP): %s\n", hardware_note.c_str());
    } else {
        char float_text[32] = "-";
        if (!std::isnan(float_at_hw_T)) std::snprintf(float_text, sizeof float_text, "%.2f%%", 100 * float_at_hw_T);
        std::printf("\nclassifier head '%s' (%zu inputs) in %d-bit integer mode at T = %lld on the first %llu images: "
                    "engine accuracy %.2f%% (float SNN %s)\n",
                    net.layers[quant->head_first].name.c_str(), heads.front().inputs, r.hardware_bits,
                    static_cast<long long>(r.hardware_timesteps), static_cast<unsigned long long>(r.hardware_images),
                    100 * r.integer_accuracy, float_text);
        std::printf("%-9s  %10s  %11s  %9s  %13s  %14s  %13s  %13s\n", "processor", "agreement", "same counts",
                    "synapses", "cycles/image", "events/image", "time/image", "energy/image");
        for (const auto& d : r.hardware) {
            double events = 0;
            for (const auto& [kind, v] : d.events_per_image) events += v;
            std::printf("%-9s  %9.2f%%  %10.2f%%  %9lld  %13.0f  %14.0f  %11.3g s  %11.3g J\n", d.processor.c_str(),
                        100 * d.agreement, 100 * d.same_counts, static_cast<long long>(d.synapses), d.cycles_per_image,
                        events, d.time_s_per_image, d.energy_j_per_image);
        }
        std::printf("(agreement: hardware prediction = the engine integer mode's; clock and energies are the models' "
                    "assumptions, docs/danna.md)\n");
    }
    print_temporal(temporal);
    std::string wrote = (out_dir / "accuracy_vs_T.svg").string() + ", " + (out_dir / "raster.svg").string() + ", " +
                        (out_dir / "results.h5").string();
    for (const auto& d : r.hardware) wrote += ", " + d.head_file;
    if (temporal)
        for (const auto& f : temporal->outputs) wrote += ", " + f.string();
    std::printf("wrote %s\n", wrote.c_str());
}

}  // namespace

void register_demo(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand(
        "demo", "The main job: train (or reuse) a CNN, convert it, evaluate the SNN on Fashion-MNIST, write plots");
    auto o = std::make_shared<demo_options>();
    cmd->add_option("--out,--out-dir", o->out_dir, "Output folder")->capture_default_str();
    cmd->add_option("--cache", o->cache_dir, "Model cache folder (default: OUT/cache)");
    cmd->add_option("--data-dir", o->data_dir, "Directory of the Fashion-MNIST IDX files")->capture_default_str();
    cmd->add_option("--limit", o->limit, "Evaluate the SNN on the first N test images")->capture_default_str()
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    cmd->add_flag("--full", o->full, "Evaluate on all 10,000 test images");
    cmd->add_option("--timesteps", o->timesteps, "Checkpoints T, read in one run")->capture_default_str();
    cmd->add_option("--epochs", o->training.epochs, "Training epochs (Adam)")->capture_default_str()
        ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
    cmd->add_option("--train-limit", o->training.train_images, "Train on the first N training images (0: all)")
        ->capture_default_str();
    cmd->add_option("--lr", o->training.learning_rate, "Adam's peak learning rate")->capture_default_str();
    cmd->add_option("--train-seed", o->training.seed, "Seed of initialisation and shuffling")->capture_default_str();
    cmd->add_flag("--retrain", o->retrain, "Train even when the cached model matches");
    cmd->add_option("--norm-images", o->norm_images, "Training images for the λ percentiles (0: all)")
        ->capture_default_str();
    cmd->add_option("--percentile", o->percentile, "Percentile of the ReLU outputs that becomes λ")
        ->capture_default_str();
    cmd->add_option("--v0", o->v0, "Initial membrane potential, in units of the threshold (0 or 0.5)")
        ->capture_default_str();
    cmd->add_option("--readout", o->readout,
                    "Output readout: count (most spikes, ties by membrane) or membrane (the integrated input)")
        ->capture_default_str();
    cmd->add_option("--raster-image", o->raster_image, "Test image whose spikes are recorded")->capture_default_str();
    cmd->add_option("--raster-steps", o->raster_steps, "Steps of the recorded image")->capture_default_str();
    add_threads_option(*cmd, o->threads, "Threads (0: all cores)");
    cmd->add_option("--seed", o->seed, "Seed of the simulation")->capture_default_str();
    cmd->add_option("--quantize", o->quantize, "Bits of the integer mode of the hardware head")->capture_default_str();
    cmd->add_option("--hardware-timesteps", o->hardware_timesteps,
                    "T of the classifier head on danna2 and RISP (0: skip that stage)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--hardware-images", o->hardware_images,
                    "Images of the hardware stage: the first N of the evaluated ones (0: all)")
        ->capture_default_str();
    cmd->add_option("--temporal-sequences", o->temporal_sequences,
                    "Test sequences per question of the temporal stage on danna2 (0: skip it)")
        ->capture_default_str();
    cmd->add_flag("--seed-hand-built", o->seed_hand_built,
                  "Start the temporal stage's EONS from the hand-built networks instead of the ones EONS designed "
                  "from random networks");
    cmd->add_option("--temporal-generations", o->temporal_generations, "EONS generations per question")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_flag("--json", o->json, "Print one JSON object with the figures on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress lines");
    cmd->callback([o] { run_demo(*o); });
}

}  // namespace volley::cli
