// `volley run snn.h5 --input IMAGES` (see cmd_run_converted.hpp).

#include "cmd_run_converted.hpp"

#include <volley/convert/evaluation_data.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/convert/snn_h5.hpp>

#include <algorithm>
#include <cmath>
#include <thread>

namespace volley::cli {

namespace {

constexpr std::size_t max_listed_predictions = 100000;

std::vector<std::int64_t> stored_timesteps(const convert::snn_h5_contents& c, const std::string& file) {
    const auto it = c.options.find("timesteps");
    if (it == c.options.end() || !it->is_array() || it->empty())
        throw invalid_parameter("volley run " + file, "--steps", "(none)",
                                "the file stores no timesteps: give --steps T");
    std::vector<std::int64_t> out;
    for (const auto& t : *it) {
        if (!t.is_number_integer() || t.get<std::int64_t>() < 1 || (!out.empty() && t.get<std::int64_t>() <= out.back()))
            throw file_format_error(file, "/ attribute 'options' timesteps", t.dump() + ": expected ascending integers >= 1");
        out.push_back(t.get<std::int64_t>());
    }
    return out;
}

/// "npz:FILE", "idx:PREFIX", "fashion-mnist"; a bare FILE.npz is "npz:FILE".
std::string data_spec(const std::string& input) {
    if (input.ends_with(".npz") && !input.starts_with("npz:")) return "npz:" + input;
    return input;
}

nlohmann::json nan_as_null(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

}  // namespace

void run_converted_file(const converted_run_options& o) {
    const auto c = convert::read_snn_h5(o.file);
    const auto& net = c.snn;
    if (o.input.empty())
        throw invalid_parameter("volley run " + o.file, "--input", "(none)",
                                "a converted network runs on images: give --input npz:FILE, idx:PREFIX or fashion-mnist "
                                "(" + std::to_string(net.channels) + "x" + std::to_string(net.height) + "x" +
                                    std::to_string(net.width) + " images)");
    convert::evaluation_options eval;
    eval.timesteps = o.steps ? std::vector<std::int64_t>{*o.steps} : stored_timesteps(c, o.file);
    if (eval.timesteps.front() < 1)
        throw invalid_parameter("--steps", "steps", std::to_string(eval.timesteps.front()), "must be >= 1");
    eval.seed = o.seed ? *o.seed : c.options.value("seed", std::uint64_t{1});
    eval.readout = convert::parse_readout_rule(o.file + ": options.readout", c.options.value("readout", std::string("count")));
    eval.max_isa = snn::parse_instruction_set("--cpu-isa", o.cpu_isa);
    eval.threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    auto data = convert::load_evaluation_data(data_spec(o.input), std::string(convert::default_fashion_mnist_dir), net.channels);
    data.keep_first(o.limit);
    if (data.channels != net.channels || data.height != net.height || data.width != net.width)
        throw invalid_parameter(data.source, "image shape",
                                std::to_string(data.channels) + "x" + std::to_string(data.height) + "x" + std::to_string(data.width),
                                o.file + " takes " + std::to_string(net.channels) + "x" + std::to_string(net.height) + "x" +
                                    std::to_string(net.width) + " images");
    if (!o.quiet && !o.json)
        std::printf("%s: converted from %s, input %s, %s readout, seed %llu; %zu images of %s\n", o.file.c_str(),
                    net.source_file.c_str(), convert::to_string(net.options.input).c_str(),
                    convert::to_string(eval.readout).c_str(), static_cast<unsigned long long>(eval.seed), data.count(),
                    data.source.c_str());
    const auto r = convert::evaluate_snn(net, data.pixels, data.labels, {}, eval);

    const double t_last = static_cast<double>(eval.timesteps.back());
    const double images = static_cast<double>(r.images);
    nlohmann::json checkpoints = nlohmann::json::array();
    for (const auto& cp : r.checkpoints)
        checkpoints.push_back({{"T", cp.timesteps},
                               {"accuracy", nan_as_null(cp.accuracy)},
                               {"spikes_per_image", cp.spikes_per_image},
                               {"synops_per_image", cp.synops_per_image}});
    nlohmann::json layers = nlohmann::json::array();
    for (std::size_t k = 0; k < r.layers.size(); ++k) {
        const auto& l = r.layers[k];
        layers.push_back({{"name", l.name},
                          {"population", net.network.at(net.layers[k].population).name},
                          {"neurons", l.neurons},
                          {"spikes", std::llround(l.spikes_per_step * static_cast<double>(l.neurons) * images * t_last)},
                          {"spikes_per_step", l.spikes_per_step}});
    }
    nlohmann::json j = {{"file", o.file},
                        {"kind", "converted SNN (HDF5)"},
                        {"model", net.source_file},
                        {"input", data.source},
                        {"images", r.images},
                        {"input_coding", convert::to_string(net.options.input)},
                        {"readout", convert::to_string(eval.readout)},
                        {"quantized_bits", c.quantized_bits},
                        {"seed", eval.seed},
                        {"threads", eval.threads},
                        {"timesteps", checkpoints},
                        {"layers", layers},
                        {"wall_s", r.wall_s}};
    if (r.images <= max_listed_predictions) {
        j["predictions"] = r.predictions.back();
        if (!data.labels.empty()) j["labels"] = data.labels;
    }
    if (o.json) {
        print_json(j);
        return;
    }
    std::printf("%6s  %10s  %14s  %15s\n", "T", "accuracy", "spikes/image", "synops/image");
    for (const auto& cp : r.checkpoints) {
        char acc[32];
        if (std::isnan(cp.accuracy)) std::snprintf(acc, sizeof acc, "-");
        else std::snprintf(acc, sizeof acc, "%.2f%%", 100 * cp.accuracy);
        std::printf("%6lld  %10s  %14.0f  %15.0f\n", static_cast<long long>(cp.timesteps), acc, cp.spikes_per_image,
                    cp.synops_per_image);
    }
    std::printf("%-16s  %9s  %12s  %10s   (at T = %lld)\n", "layer", "neurons", "spikes", "rate", static_cast<long long>(t_last));
    for (const auto& l : layers)
        std::printf("%-16s  %9zu  %12lld  %10.4f\n", l["name"].get<std::string>().c_str(), l["neurons"].get<std::size_t>(),
                    l["spikes"].get<long long>(), l["spikes_per_step"].get<double>());
    const auto& p = r.predictions.back();
    std::printf("predicted classes at T = %lld:", static_cast<long long>(t_last));
    for (std::size_t i = 0; i < std::min<std::size_t>(p.size(), 20); ++i) std::printf(" %d", p[i]);
    std::printf(p.size() > 20 ? " ... (all of them with --json)\n" : "\n");
    std::printf("evaluated in %.2f s on %d threads\n", r.wall_s, eval.threads);
}

}  // namespace volley::cli
