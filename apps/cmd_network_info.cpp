// `volley info FILE`: what a network file holds (see cmd_network_info.hpp, docs/network-files.md).

#include "cmd_network_info.hpp"

#include "cmd_nir.hpp"

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>
#include <volley/snn/simulation.hpp>

#include <cstdio>

namespace volley::cli {

namespace {

std::string shape_text(const nlohmann::json& shape) {
    std::string out;
    for (const auto& d : shape) out += (out.empty() ? "" : "x") + std::to_string(d.get<long long>());
    return out.empty() ? "-" : out;
}

std::string delay_text(const snn::value_spec& v) {
    const auto* d = std::get_if<double>(&v);
    if (!d) return "per synapse";
    char text[32];
    std::snprintf(text, sizeof text, "%g", *d);
    return text;
}

/// Populations, projections and the synapse counts of the network as the engine builds it
/// (random connectors drawn with `seed`).
nlohmann::json describe_network(const snn::network& net, double dt_ms, std::uint64_t seed) {
    nlohmann::json d;
    nlohmann::json pops = nlohmann::json::array();
    for (const auto& p : net.populations())
        pops.push_back({{"name", p.name}, {"model", snn::model_name(p.model)}, {"size", p.size}});
    d["populations"] = pops;
    d["neurons"] = net.neuron_count();
    std::optional<snn::simulation> sim;
    try {
        sim.emplace(net, snn::context{.threads = 1}, snn::simulation_options{.dt_ms = dt_ms, .seed = seed});
    } catch (const error& e) {
        d["build_error"] = e.what();
    }
    nlohmann::json projs = nlohmann::json::array();
    for (std::size_t k = 0; k < net.projections().size(); ++k) {
        const auto& p = net.projections()[k];
        nlohmann::json j = {{"source", net.at(p.source).name},
                            {"target", net.at(p.target).name},
                            {"connector", snn::connector_name(p.rule)},
                            {"receptor", p.synapse.receptor == snn::excitatory ? "excitatory" : "inhibitory"},
                            {"delay_ms", delay_text(p.synapse.delay_ms)},
                            {"plastic", !std::holds_alternative<std::monostate>(p.synapse.plasticity)}};
        j["synapses"] = sim ? nlohmann::json(sim->weights(k).size()) : nlohmann::json(nullptr);
        projs.push_back(j);
    }
    d["projections"] = projs;
    d["synapses"] = sim ? nlohmann::json(sim->stats().synapses) : nlohmann::json(nullptr);
    d["currents"] = net.stimuli().size();
    d["dt_ms"] = dt_ms;
    d["seed"] = seed;
    return d;
}

void print_network(const nlohmann::json& d) {
    std::printf("%zu populations, %llu neurons, %zu projections, ", d["populations"].size(),
                d["neurons"].get<unsigned long long>(), d["projections"].size());
    if (d["synapses"].is_null()) std::printf("synapses not counted (%s)\n", d["build_error"].get<std::string>().c_str());
    else std::printf("%llu synapses (as built at dt = %g ms, seed %llu)\n", d["synapses"].get<unsigned long long>(),
                     d["dt_ms"].get<double>(), d["seed"].get<unsigned long long>());
    std::printf("  %-20s %-18s %10s\n", "population", "model", "size");
    for (const auto& p : d["populations"])
        std::printf("  %-20s %-18s %10u\n", p["name"].get<std::string>().c_str(), p["model"].get<std::string>().c_str(),
                    p["size"].get<unsigned>());
    if (d["projections"].empty()) return;
    std::printf("  %-30s %-18s %-11s %10s\n", "projection", "connector", "delay [ms]", "synapses");
    for (const auto& p : d["projections"]) {
        const std::string name = p["source"].get<std::string>() + " -> " + p["target"].get<std::string>();
        const std::string syn = p["synapses"].is_null() ? "-" : std::to_string(p["synapses"].get<unsigned long long>());
        std::printf("  %-30s %-18s %-11s %10s%s%s\n", name.c_str(), p["connector"].get<std::string>().c_str(),
                    p["delay_ms"].get<std::string>().c_str(), syn.c_str(),
                    p["receptor"] == "inhibitory" ? "  inhibitory" : "", p["plastic"].get<bool>() ? "  plastic" : "");
    }
}

nlohmann::json nir_facts(const std::string& path, nlohmann::json& network) {
    const auto g = snn::read_nir(path);
    nlohmann::json j = {{"version", g.version}, {"notes", g.notes}};
    nlohmann::json nodes = nlohmann::json::array();
    for (std::size_t i : g.order)
        nodes.push_back({{"name", g.nodes[i].name}, {"type", g.nodes[i].type}, {"output_shape", g.nodes[i].output_shape}});
    j["nodes"] = nodes;
    j["edges"] = g.edges.size();
    try {
        const auto model = snn::nir_to_network(g);
        network = describe_network(model.net, model.options.dt_s * 1000, 1);
        j["import"] = snn::describe(model.options);
        j["warnings"] = report_nir_step_warnings(model.warnings);
    } catch (const error& e) {
        j["import_error"] = e.what();
    }
    return j;
}

nlohmann::json converted_facts(const std::string& path, nlohmann::json& network) {
    const auto c = convert::read_snn_h5(path);
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& l : c.snn.layers)
        layers.push_back({{"name", l.name}, {"population", c.snn.network.at(l.population).name},
                          {"shape", {l.channels, l.height, l.width}}, {"lambda", l.lambda}});
    const auto seed = c.options.value("seed", std::uint64_t{1});
    network = describe_network(c.snn.network, 1.0, seed);
    return {{"model", c.snn.source_file},
            {"quantized_bits", c.quantized_bits},
            {"image_shape", {c.snn.channels, c.snn.height, c.snn.width}},
            {"input", convert::to_string(c.snn.options.input)},
            {"reset", convert::to_string(c.snn.options.reset)},
            {"input_population", c.snn.input ? nlohmann::json(c.snn.network.at(*c.snn.input).name) : nlohmann::json(nullptr)},
            {"layers", layers},
            {"options", c.options}};
}

nlohmann::json tennlab_facts(const std::string& path) {
    const auto t = hw::load_tennlab_network(path, hw::unknown_keys::keep);
    return {{"nodes", t.nodes.size()}, {"edges", t.edges.size()}, {"inputs", t.inputs.size()},
            {"outputs", t.outputs.size()}, {"network_values", t.network_values}};
}

nlohmann::json cnn_facts(const std::string& path) {
    const auto g = convert::read_cnn(path);
    const auto& s = g.input_shape;
    return {{"format", g.format}, {"input_shape", {s.c, s.h, s.w}}, {"layers", g.nodes.size()},
            {"parameters", g.parameter_count()}, {"classes", g.classes()}, {"summary", convert::summary(g)}};
}

/// What to do with a file of this kind, for the last line of the text output.
std::string next_step(network_file_kind kind, const std::string& path) {
    switch (kind) {
        case network_file_kind::volley_json: return "run it: volley run " + path;
        case network_file_kind::nir: return "run it: volley run " + path + " --input STEPS.csv (docs/nir.md)";
        case network_file_kind::converted_snn: return "run it on images: volley run " + path + " --input npz:IMAGES.npz";
        case network_file_kind::tennlab_json: return "run it: volley danna run " + path + " --model danna2 --inputs SPIKES.csv --cycles N, or ML it in volley risp";
        case network_file_kind::danna_programme: return "run it: volley danna run " + path + " --inputs SPIKES.csv --cycles N";
        case network_file_kind::cnn_model: return "convert it: volley convert " + path + " --out snn.h5";
        case network_file_kind::spike_recording: return "a recording, not a network (docs/recording-format.md)";
    }
    return "";
}

}  // namespace

void print_network_file_info(const std::string& path, bool json) {
    const auto kind = detect_network_file(path);
    nlohmann::json j = {{"file", path}, {"kind", kind_name(kind)}};
    nlohmann::json network;
    switch (kind) {
        case network_file_kind::volley_json: {
            const auto f = snn::load_network_json(path);
            network = describe_network(f.net, f.run.dt_ms, f.run.seed);
            j["run"] = {{"dt_ms", f.run.dt_ms}, {"duration_ms", f.run.duration_ms}, {"seed", f.run.seed}};
            break;
        }
        case network_file_kind::nir: j["nir"] = nir_facts(path, network); break;
        case network_file_kind::converted_snn: j["converted"] = converted_facts(path, network); break;
        case network_file_kind::tennlab_json: j["tennlab"] = tennlab_facts(path); break;
        case network_file_kind::cnn_model: j["cnn"] = cnn_facts(path); break;
        case network_file_kind::danna_programme:
        case network_file_kind::spike_recording: break;
    }
    if (!network.is_null()) j["network"] = network;
    if (json) {
        print_json(j);
        return;
    }
    std::printf("%s: %s\n", path.c_str(), kind_name(kind).c_str());
    if (j.contains("run"))
        std::printf("run settings: dt = %g ms, duration %g ms, seed %llu\n", j["run"]["dt_ms"].get<double>(),
                    j["run"]["duration_ms"].get<double>(), j["run"]["seed"].get<unsigned long long>());
    if (j.contains("nir")) {
        const auto& n = j["nir"];
        std::printf("NIR %s, %zu nodes, %zu edges\n", n["version"].get<std::string>().c_str(), n["nodes"].size(),
                    n["edges"].get<std::size_t>());
        for (const auto& node : n["nodes"])
            std::printf("  node %-20s %-10s %s\n", node["name"].get<std::string>().c_str(),
                        node["type"].get<std::string>().c_str(), shape_text(node["output_shape"]).c_str());
        if (n.contains("import")) std::printf("as engine populations (%s):\n", n["import"].get<std::string>().c_str());
        else std::printf("not importable: %s\n", n["import_error"].get<std::string>().c_str());
    }
    if (j.contains("converted")) {
        const auto& c = j["converted"];
        std::printf("converted from %s; image %s, input %s, reset %s, %s\n", c["model"].get<std::string>().c_str(),
                    shape_text(c["image_shape"]).c_str(), c["input"].get<std::string>().c_str(),
                    c["reset"].get<std::string>().c_str(),
                    c["quantized_bits"].get<int>() == 0 ? "float weights"
                                                        : (std::to_string(c["quantized_bits"].get<int>()) + "-bit integer mode").c_str());
        std::printf("  %-16s %-12s %12s\n", "spiking layer", "shape", "lambda");
        for (const auto& l : c["layers"])
            std::printf("  %-16s %-12s %12.5g\n", l["name"].get<std::string>().c_str(), shape_text(l["shape"]).c_str(),
                        l["lambda"].get<double>());
    }
    if (j.contains("tennlab")) {
        const auto& t = j["tennlab"];
        std::printf("%zu nodes, %zu edges, %zu inputs, %zu outputs\n", t["nodes"].get<std::size_t>(),
                    t["edges"].get<std::size_t>(), t["inputs"].get<std::size_t>(), t["outputs"].get<std::size_t>());
    }
    if (j.contains("cnn")) {
        const auto& c = j["cnn"];
        auto summary = c["summary"].get<std::string>();
        if (!summary.empty() && summary.back() != '\n') summary += '\n';
        std::printf("%s model, input %s, %zu layers, %zu parameters, %zu classes\n%s",
                    c["format"].get<std::string>().c_str(), shape_text(c["input_shape"]).c_str(),
                    c["layers"].get<std::size_t>(), c["parameters"].get<std::size_t>(), c["classes"].get<std::size_t>(),
                    summary.c_str());
    }
    if (!network.is_null()) print_network(network);
    std::printf("%s\n", next_step(kind, path).c_str());
}

}  // namespace volley::cli
