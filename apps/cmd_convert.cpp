// `volley convert`: converts a trained CNN into a spiking network, runs it on the engine over a
// data set and reports accuracy at several numbers of steps, with the CNN beside it.

#include "cli_common.hpp"
#include "conversion_cli.hpp"

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/evaluation_data.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/convert/head_export.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/convert/snn_quantization.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace volley::cli {

namespace {

struct convert_options {
    std::string model;
    std::string architecture;  ///< Keras model.to_json() for a save_weights `model`
    std::string data = "fashion-mnist";
    std::string data_dir{convert::default_fashion_mnist_dir};
    std::string timesteps = "8,16,32,64,128,256";
    std::string percentile = "99.9";
    std::size_t norm_images = 10000;
    std::string input = "const", reset = "subtract", max_pool = "gate", readout = "count";
    double v0 = 0, max_rate = 1.0;
    std::int64_t ttfs_window = 16;
    std::size_t limit = 0;
    int threads = 0;
    std::uint64_t seed = 1;
    std::string out;
    int quantize = 0;  ///< bits of the integer mode; 0: off
    std::string export_head, hardware = "danna2";
    std::string cpu_isa = "best";  ///< --cpu-isa (tuning: the same spikes)
    std::string backend = "cpu";   ///< --backend (the same spikes)
    std::size_t batch = 0;         ///< --batch (0: the backend's default)
    bool json = false, quiet = false;
};

/// Fraction of equal entries of two prediction lists.
double agreement(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    return a.empty() ? std::nan("") : static_cast<double>(same) / static_cast<double>(a.size());
}

convert::conversion_options conversion_settings(const convert_options& o) {
    convert::conversion_options c;
    if (o.reset == "subtract") c.reset = convert::reset_rule::subtract;
    else if (o.reset == "zero") c.reset = convert::reset_rule::zero;
    else throw invalid_parameter("--reset", "reset", o.reset, "expected subtract or zero");
    if (o.input == "const") c.input = convert::input_coding::constant_current;
    else if (o.input == "poisson") c.input = convert::input_coding::poisson;
    else if (o.input == "bernoulli") c.input = convert::input_coding::bernoulli;
    else if (o.input == "ttfs") c.input = convert::input_coding::ttfs;
    else throw invalid_parameter("--input", "input", o.input, "expected const, poisson, bernoulli or ttfs");
    c.ttfs_window = o.ttfs_window;
    if (c.input == convert::input_coding::ttfs && c.ttfs_window < 2)
        throw invalid_parameter("--ttfs-window", "ttfs_window", std::to_string(o.ttfs_window),
                                "the time-to-first-spike window needs at least 2 steps");
    if (o.max_pool == "avg") c.max_pool_as_avg = true;
    else if (o.max_pool == "gate") c.max_pool_as_avg = false;
    else throw invalid_parameter("--max-pool", "max-pool", o.max_pool, "expected gate or avg");
    c.v0 = o.v0;
    c.max_rate = o.max_rate;
    return c;
}

/// The converted network as a NIR graph (docs/nir.md): under the constant-current coding the
/// image reaches the first layer through its bias, which NIR cannot say, so an Input population
/// of the image's shape feeds the first layer through its weights, one step as between layers.
/// One step is 1 ms (dt = 1e-3 s).
snn::nir_graph converted_to_nir(const convert::converted_snn& c) {
    snn::network net = c.network;
    if (!c.input) {
        const auto in = net.add_population("input", static_cast<std::uint32_t>(c.image_size()), snn::analog_source{});
        const auto first = c.layers.front().population;
        if (c.first_weights.empty()) net.connect(in, first, c.first_map, {.weight = 1.0, .delay_ms = 1.0});
        else net.connect(in, first, c.first_map, {.weight = c.first_weights, .delay_ms = 1.0});
    }
    return snn::network_to_nir(net, {.dt_s = 1e-3});
}

void run_convert(const convert_options& o) {
    const auto timesteps = parse_timesteps(o.timesteps);
    const auto settings = conversion_settings(o);
    const auto readout = convert::parse_readout_rule("--readout", o.readout);
    const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const snn::backend_kind backend = parse_backend(o.backend);  // before any work
    std::FILE* log = o.json ? stderr : stdout;
    const auto t_start = std::chrono::steady_clock::now();

    const auto graph = o.architecture.empty()
                           ? convert::read_cnn(o.model)
                           : convert::read_cnn(o.model, std::filesystem::path(o.architecture));
    auto data = convert::load_evaluation_data(o.data, o.data_dir, graph.input_shape.c);
    const convert::shape4 image_shape{1, data.channels, data.height, data.width};
    if (image_shape != graph.input_shape.with_batch(1))
        throw invalid_parameter(data.source, "image shape", convert::to_string(image_shape),
                                "the model " + o.model + " expects " + convert::to_string(graph.input_shape.with_batch(1)));

    // λ per layer on a normalisation set: the training split for Fashion-MNIST, else the data itself.
    convert::normalization_options norm;
    if (o.percentile == "max") norm.percentile = 100;
    else {
        char* end = nullptr;
        norm.percentile = std::strtod(o.percentile.c_str(), &end);
        if (o.percentile.empty() || *end != '\0')
            throw invalid_parameter("--percentile", "percentile", o.percentile, "expected a number in (0, 100] or max");
    }
    norm.max_images = o.norm_images;
    norm.forward.threads = threads;
    convert::tensor<float> norm_images;
    std::string norm_source;
    if (o.data == "fashion-mnist") {
        const auto train = convert::load_fashion_mnist(o.data_dir, "train").head(o.norm_images);
        norm_images = convert::tensor<float>({train.count(), train.channels, train.height, train.width});
        norm_images.values = train.pixels;
        norm_source = "the first " + std::to_string(train.count()) + " Fashion-MNIST training images";
    } else {
        const std::size_t n = o.norm_images == 0 ? data.count() : std::min(o.norm_images, data.count());
        norm_images = convert::tensor<float>(graph.input_shape.with_batch(n));
        std::copy_n(data.pixels.begin(), norm_images.values.size(), norm_images.values.begin());
        norm_source = "the first " + std::to_string(n) + " evaluation images (no separate normalisation set)";
    }
    // --limit restricts the evaluation only: λ must not change with the number of images scored.
    data.keep_first(o.limit);
    const auto t_norm0 = std::chrono::steady_clock::now();
    const auto scales = convert::compute_layer_scales(graph, norm_images, norm);
    const double norm_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_norm0).count();

    const auto net = convert::convert_to_snn(graph, scales, settings);
    std::optional<convert::quantized_snn> quant;
    const auto hardware = convert::head_hardware_from_name(o.hardware, "--hardware");
    if (!o.export_head.empty() && o.quantize == 0)
        throw invalid_parameter("--export-head", "export-head", o.export_head,
                                "the exported head is the integer mode's: give --quantize BITS too");
    if (o.quantize != 0) {
        convert::quantization_options qo{.bits = o.quantize};
        if (!o.export_head.empty()) qo.head_max_threshold = convert::head_threshold_limit(hardware);
        quant = convert::quantize_snn(net, qo);
    }
    // --out: the integer-mode network with --quantize, else the converted one.
    const auto& written = quant ? quant->snn : net;
    if (o.out.ends_with(".nir"))
        snn::write_nir(converted_to_nir(written), o.out);
    else if (o.out.ends_with(".h5"))
        convert::write_snn_h5({.snn = written,
                               .quantized_bits = o.quantize,
                               .options = {{"model", o.model}, {"data", o.data}, {"percentile", o.percentile},
                                           {"norm_images", o.norm_images}, {"input", o.input}, {"max_rate", o.max_rate},
                                           {"reset", o.reset}, {"v0", o.v0}, {"max_pool", o.max_pool}, {"readout", o.readout},
                                           {"timesteps", timesteps}, {"seed", o.seed}, {"quantize", o.quantize},
                                           {"input_scale", scales.input_scale}}},
                              o.out);
    else if (!o.out.empty())
        snn::save_network_json(written.network, o.out,
                               {.dt_ms = 1.0, .duration_ms = static_cast<double>(timesteps.back()), .seed = o.seed});

    convert::tensor<float> images(graph.input_shape.with_batch(data.count()));
    images.values = data.pixels;
    const auto t_cnn0 = std::chrono::steady_clock::now();
    const auto cnn_pred = convert::argmax_rows(convert::analog_forward(graph, images, {.threads = threads}));
    const double cnn_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_cnn0).count();
    double cnn_acc = std::nan("");
    if (!data.labels.empty()) {
        std::size_t ok = 0;
        for (std::size_t i = 0; i < cnn_pred.size(); ++i) ok += cnn_pred[i] == data.labels[i];
        cnn_acc = static_cast<double>(ok) / static_cast<double>(std::max<std::size_t>(cnn_pred.size(), 1));
    }

    if (!o.quiet) {
        std::fprintf(log, "model %s: %zu layers, %zu parameters; %zu spiking layers, %llu neurons\n", o.model.c_str(),
                     graph.nodes.size(), graph.parameter_count(), net.layers.size(),
                     static_cast<unsigned long long>(net.network.neuron_count()));
        std::fprintf(log, "normalisation: p%s on %s (%.1f s); input %s, reset %s, v0 %g, %s readout\n",
                     o.percentile.c_str(), norm_source.c_str(), norm_s, convert::to_string(settings.input).c_str(),
                     convert::to_string(settings.reset).c_str(), settings.v0, convert::to_string(readout).c_str());
        std::fprintf(log, "evaluating %zu images of %s on %d threads\n", data.count(), data.source.c_str(), threads);
        std::fflush(log);
    }
    convert::evaluation_options eval;
    eval.timesteps = timesteps;
    eval.threads = threads;
    eval.seed = o.seed;
    eval.readout = readout;
    eval.max_isa = snn::parse_instruction_set("--cpu-isa", o.cpu_isa);
    eval.backend = backend;
    eval.batch = o.batch;
    const bool bar = !o.quiet && stderr_is_terminal();
    std::mutex bar_mutex;
    if (bar)
        eval.progress = [&](std::size_t done, std::size_t total) {
            if (done % 50 != 0 && done != total) return;
            std::lock_guard lock(bar_mutex);
            std::fprintf(stderr, "\r%zu/%zu images", done, total);
            if (done == total) std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
        };
    const auto result = convert::evaluate_snn(net, data.pixels, data.labels, cnn_pred, eval);
    std::optional<convert::evaluation_result> qresult;
    std::optional<convert::head_network> head;
    std::optional<convert::head_check_result> head_check;
    if (quant) {
        if (!o.quiet) {
            std::fprintf(log, "integer mode: %d-bit weights; evaluating again\n", o.quantize);
            std::fflush(log);
        }
        qresult = convert::evaluate_snn(quant->snn, data.pixels, data.labels, cnn_pred, eval);
        if (!o.export_head.empty()) {
            head = convert::export_head(*quant, hardware);
            hw::save_tennlab_network(head->network, o.export_head);
            if (!o.quiet) {
                std::fprintf(log, "running the head on %s at T = %lld\n", o.hardware.c_str(),
                             static_cast<long long>(timesteps.back()));
                std::fflush(log);
            }
            head_check = convert::check_head_on_hardware(*quant, *head, data.pixels,
                                                         {.timesteps = timesteps.back(), .threads = threads});
        }
    }
    const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

    if (o.json) {
        nlohmann::json ts = nlohmann::json::array();
        for (const auto& c : result.checkpoints)
            ts.push_back({{"T", c.timesteps},
                          {"accuracy", data.labels.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.accuracy)},
                          {"agreement", c.agreement},
                          {"spikes_per_image", c.spikes_per_image},
                          {"synops_per_image", c.synops_per_image}});
        nlohmann::json layers = nlohmann::json::array();
        for (std::size_t l = 0; l < result.layers.size(); ++l)
            layers.push_back({{"name", result.layers[l].name},
                              {"neurons", result.layers[l].neurons},
                              {"lambda", net.layers[l].lambda},
                              {"spikes_per_step", result.layers[l].spikes_per_step}});
        nlohmann::json quantized = nullptr;
        if (quant) {
            nlohmann::json qts = nlohmann::json::array(), ql = nlohmann::json::array();
            for (std::size_t c = 0; c < qresult->checkpoints.size(); ++c) {
                const auto& q = qresult->checkpoints[c];
                const auto& f = result.checkpoints[c];
                qts.push_back({{"T", q.timesteps},
                               {"accuracy", data.labels.empty() ? nlohmann::json(nullptr) : nlohmann::json(q.accuracy)},
                               {"accuracy_change", data.labels.empty() ? nlohmann::json(nullptr) : nlohmann::json(q.accuracy - f.accuracy)},
                               {"agreement", q.agreement},
                               {"agreement_with_float", agreement(qresult->predictions[c], result.predictions[c])},
                               {"spikes_per_image", q.spikes_per_image},
                               {"synops_per_image", q.synops_per_image}});
            }
            for (const auto& l : quant->layers)
                ql.push_back({{"name", l.name}, {"scale", l.scale}, {"threshold", l.threshold},
                              {"max_abs_weight", l.max_abs_weight}, {"max_abs_bias", l.max_abs_bias}, {"head", l.head}});
            quantized = {{"bits", quant->bits}, {"layers", ql}, {"timesteps", qts}, {"wall_s", qresult->wall_s}};
            if (head_check) {
                const double n = static_cast<double>(std::max<std::size_t>(head_check->images, 1));
                quantized["head"] = {{"file", o.export_head},
                                     {"hardware", o.hardware},
                                     {"T", head_check->timesteps},
                                     {"images", head_check->images},
                                     {"inputs", head->inputs},
                                     {"synapses", head->network.edges.size()},
                                     {"agreement", static_cast<double>(head_check->same_prediction) / n},
                                     {"same_output_counts", static_cast<double>(head_check->same_counts) / n},
                                     {"same_output_charges", static_cast<double>(head_check->same_charges) / n},
                                     {"charge_beyond_range", static_cast<double>(head_check->charge_beyond_range) / n},
                                     {"input_spikes_per_image", static_cast<double>(head_check->input_spikes) / n},
                                     {"cost", head_check->cost.to_json()},
                                     {"time_s_per_image", head_check->cost.time_s() / n},
                                     {"energy_j_per_image", head_check->cost.energy_j() / n},
                                     {"wall_s", head_check->wall_s}};
            }
        }
        print_json({{"cnn_accuracy", data.labels.empty() ? nlohmann::json(nullptr) : nlohmann::json(cnn_acc)},
                    {"model", o.model},
                    {"data", data.source},
                    {"images", result.images},
                    {"percentile", o.percentile},
                    {"input", convert::to_string(settings.input)},
                    {"reset", convert::to_string(settings.reset)},
                    {"v0", settings.v0},
                    {"readout", convert::to_string(readout)},
                    {"max_pool", o.max_pool},
                    {"ttfs_window", settings.ttfs_window},
                    {"threads", threads},
                    {"backend", o.backend},
                    {"batch", o.batch},
                    {"timesteps", ts},
                    {"layers", layers},
                    {"wall_s", result.wall_s},
                    {"synops_per_s", result.synops_per_s},
                    {"normalisation_s", norm_s},
                    {"cnn_s", cnn_s},
                    {"total_s", total_s},
                    {"peak_rss_bytes", peak_rss_bytes()},
                    {"quantized", quantized}});
        return;
    }
    if (data.labels.empty()) std::printf("CNN: no labels (agreement only)\n");
    else std::printf("CNN accuracy %.2f%% (%zu images)\n", 100 * cnn_acc, result.images);
    std::printf("%6s  %12s  %10s  %14s  %15s\n", "T", "SNN accuracy", "agreement", "spikes/image", "synops/image");
    for (const auto& c : result.checkpoints) {
        char acc[32];
        if (data.labels.empty()) std::snprintf(acc, sizeof acc, "%s", "-");
        else std::snprintf(acc, sizeof acc, "%.2f%%", 100 * c.accuracy);
        std::printf("%6lld  %12s  %9.2f%%  %14.0f  %15.0f\n", static_cast<long long>(c.timesteps), acc, 100 * c.agreement,
                    c.spikes_per_image, c.synops_per_image);
    }
    if (quant) {
        std::printf("\ninteger mode, %d-bit weights (head from layer '%s': reset to 0)\n", quant->bits,
                    quant->head_first < quant->layers.size() ? quant->layers[quant->head_first].name.c_str() : "-");
        std::printf("%6s  %12s  %10s  %15s  %14s\n", "T", "accuracy", "change", "same as float", "spikes/image");
        for (std::size_t c = 0; c < qresult->checkpoints.size(); ++c) {
            const auto& q = qresult->checkpoints[c];
            char acc[32], change[32];
            if (data.labels.empty()) {
                std::snprintf(acc, sizeof acc, "-");
                std::snprintf(change, sizeof change, "-");
            } else {
                std::snprintf(acc, sizeof acc, "%.2f%%", 100 * q.accuracy);
                std::snprintf(change, sizeof change, "%+.2f pp", 100 * (q.accuracy - result.checkpoints[c].accuracy));
            }
            std::printf("%6lld  %12s  %10s  %14.2f%%  %14.0f\n", static_cast<long long>(q.timesteps), acc, change,
                        100 * agreement(qresult->predictions[c], result.predictions[c]), q.spikes_per_image);
        }
        std::printf("%-16s  %12s  %10s  %10s\n", "layer", "max|W|", "scale", "threshold");
        for (const auto& l : quant->layers)
            std::printf("%-16s  %12.4g  %10.4g  %10lld%s%s\n", l.name.c_str(), l.max_abs_weight, l.scale,
                        static_cast<long long>(l.threshold), l.head ? "  (head)" : "",
                        l.scale_limited ? "  scale limited by the hardware threshold range" : "");
        for (const auto& l : quant->layers)
            if (l.scale_limited)
                std::printf("note: %s: %d bits would need threshold %.0f, beyond %s's range; its weights use at most "
                            "%.0f (%.1f bits)\n",
                            l.name.c_str(), quant->bits, std::round((std::ldexp(1.0, quant->bits - 1) - 1) / l.max_abs_weight),
                            o.hardware.c_str(), std::round(l.max_abs_weight * l.scale),
                            1 + std::log2(std::round(l.max_abs_weight * l.scale) + 1));
    }
    if (head_check) {
        const auto& h = *head_check;
        const double n = static_cast<double>(std::max<std::size_t>(h.images, 1));
        std::printf("\nclassifier head on %s (%zu inputs, %zu synapses; wrote %s), T = %lld, %zu images:\n",
                    o.hardware.c_str(), head->inputs, head->network.edges.size(), o.export_head.c_str(),
                    static_cast<long long>(h.timesteps), h.images);
        std::printf("  predictions equal to the engine's integer mode: %zu/%zu (%.2f%%); output fire counts equal: "
                    "%zu/%zu; final charges equal: %zu/%zu\n",
                    h.same_prediction, h.images, 100.0 * static_cast<double>(h.same_prediction) / n, h.same_counts,
                    h.images, h.same_charges, h.images);
        if (h.charge_beyond_range > 0)
            std::printf("  (%zu images have an output charge beyond %s's charge range, where the hardware saturates)\n",
                        h.charge_beyond_range, o.hardware.c_str());
        std::printf("  per image: %.0f input spikes, %.0f cycles", static_cast<double>(h.input_spikes) / n,
                    static_cast<double>(h.cost.cycles) / n);
        for (const auto& [kind, count] : h.cost.events) std::printf(", %.0f %s", static_cast<double>(count) / n, kind.c_str());
        std::printf("; %.3g s and %.3g J at the model's clock and energies (assumptions, see docs/danna.md)\n",
                    h.cost.time_s() / n, h.cost.energy_j() / n);
    }
    std::printf("\nfiring rates at T = %lld (spikes per neuron and step)\n", static_cast<long long>(timesteps.back()));
    std::printf("%-16s  %9s  %10s  %10s\n", "layer", "neurons", "lambda", "rate");
    for (std::size_t l = 0; l < result.layers.size(); ++l) {
        const auto& r = result.layers[l];
        const char* flag = r.spikes_per_step > 0.9 ? "  WARNING: saturated (> 0.9): lower lambda's percentile or check the input scale"
                           : r.spikes_per_step < 0.001 ? "  WARNING: nearly silent (< 0.001): this layer's lambda may be too large"
                                                       : "";
        std::printf("%-16s  %9zu  %10.4g  %10.4f%s\n", r.name.c_str(), r.neurons, net.layers[l].lambda, r.spikes_per_step, flag);
    }
    std::printf("\nSNN evaluation %.2f s on %d threads, %.3g synaptic events/s; total %.1f s, peak RSS %.0f MB\n",
                result.wall_s, threads, result.synops_per_s, total_s, static_cast<double>(peak_rss_bytes()) / 1e6);
    if (!o.out.empty()) std::printf("wrote %s\n", o.out.c_str());
}

}  // namespace

void register_convert(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand("convert", "Convert a trained CNN to a spiking network and evaluate it on the engine");
    auto o = std::make_shared<convert_options>();
    cmd->add_option("model", o->model, "Trained CNN: Keras .h5 or Volley HDF5")->required();
    cmd->add_option("--architecture", o->architecture,
                    "Keras architecture JSON (model.to_json()) when MODEL is a save_weights .h5 "
                    "(weights only)");
    cmd->add_option("--data", o->data, "fashion-mnist, idx:PATH_PREFIX or npz:FILE")->capture_default_str();
    cmd->add_option("--data-dir", o->data_dir, "Directory of the Fashion-MNIST IDX files")->capture_default_str();
    cmd->add_option("--timesteps", o->timesteps, "Checkpoints T, read in one run")->capture_default_str();
    cmd->add_option("--percentile", o->percentile, "λ per layer: a percentile of the ReLU outputs, or max")
        ->capture_default_str();
    cmd->add_option("--norm-images", o->norm_images, "Images of the normalisation set (0: all)")->capture_default_str();
    cmd->add_option("--input", o->input, "Input coding: const, poisson, bernoulli or ttfs")->capture_default_str();
    cmd->add_option("--ttfs-window", o->ttfs_window, "ttfs: the window K of first-spike times [steps]")
        ->capture_default_str();
    cmd->add_option("--max-rate", o->max_rate, "Input events per step at pixel value 1 (poisson, bernoulli)")
        ->capture_default_str();
    cmd->add_option("--reset", o->reset, "Reset after a spike: subtract or zero")->capture_default_str();
    cmd->add_option("--v0", o->v0, "Initial membrane potential, in units of the threshold (0 or 0.5)")
        ->capture_default_str();
    cmd->add_option("--readout", o->readout,
                    "Output readout: count (most spikes, ties by membrane) or membrane (spikes x threshold + v: "
                    "the integrated input)")
        ->capture_default_str();
    cmd->add_option("--max-pool", o->max_pool, "Max-pool handling: gate (pass the input with the highest spike count so far) or avg (replace by average pooling)")
        ->capture_default_str();
    cmd->add_option("--limit", o->limit, "Evaluate only the first N images (0: all)");
    add_threads_option(*cmd, o->threads, "Worker threads, one image each (0: all cores)");
    cmd->add_option("--seed", o->seed, "Seed of spike-coded inputs")->capture_default_str();
    cmd->add_option("--out", o->out,
                    "Write the spiking network (the integer mode with --quantize): Volley network JSON, NIR when FILE "
                    "ends in .nir, the SNN HDF5 layout when it ends in .h5");
    cmd->add_option("--quantize", o->quantize,
                    "Also run the integer mode: weights of BITS bits, integer thresholds and biases (2..31)");
    cmd->add_option("--export-head", o->export_head,
                    "Write the integer-mode classifier head as TENNLab network JSON and run it on --hardware");
    cmd->add_option("--hardware", o->hardware, "Processor of --export-head: risp or danna2")->capture_default_str();
    cmd->add_option("--cpu-isa", o->cpu_isa, "Widest kernels the engine may use: best, avx2 or baseline (same spikes)");
    cmd->add_option("--backend", o->backend,
                    "Engine of the SNN evaluation: cpu (--threads images at once), portable (the CUDA backend's "
                    "source on OpenMP, one image at a time) or cuda (GPU 0); the same spikes (docs/cuda.md)")
        ->capture_default_str();
    cmd->add_option("--batch", o->batch,
                    "Images per simulation, as a batch dimension of one network (the same spikes per image); 0: 1 on "
                    "cpu, 64 on portable and cuda");
    cmd->add_flag("--json", o->json, "Print one JSON object on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress or header lines");
    cmd->callback([o] { run_convert(*o); });
}

}  // namespace volley::cli
