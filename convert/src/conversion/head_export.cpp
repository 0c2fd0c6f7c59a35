// The classifier head on RISP and danna2 (see head_export.hpp).

#include <volley/convert/head_export.hpp>

#include <volley/danna/danna2_processor.hpp>
#include <volley/error.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/thread_limit.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "conversion/image_workers.hpp"
#include "conversion/input_coding.hpp"

namespace volley::convert {

namespace {

/// The engine's delay of a projection, in steps (dt = 1 ms, as evaluate_snn runs).
std::int64_t delay_steps(const snn::projection& p) {
    const auto* d = std::get_if<double>(&p.synapse.delay_ms);
    if (!d) throw internal_error("a projection of a converted network has per-synapse delays");
    return std::llround(*d);
}

const snn::projection& dense_projection(const converted_snn& net, std::size_t layer) {
    for (const auto& p : net.network.projections())
        if (p.target == net.layers[layer].population && p.source == net.layers[layer - 1].population &&
            std::holds_alternative<snn::all_to_all>(p.rule))
            return p;
    throw internal_error("head layer '" + net.layers[layer].name + "' has no dense projection");
}

std::vector<double> bias_of(const converted_snn& net, std::size_t layer) {
    const auto& pop = net.network.at(net.layers[layer].population);
    std::vector<double> b(pop.size, std::get<snn::discrete_neuron>(pop.model).p.i_bias);
    for (const auto& [name, value] : pop.parameters)
        if (name == "i_bias") {
            if (const auto* d = std::get_if<double>(&value)) b.assign(pop.size, *d);
            else b = std::get<std::vector<double>>(value);
        }
    return b;
}

/// One node's or edge's values array from named properties.
std::vector<double> values(const std::vector<hw::property>& props, std::initializer_list<std::pair<const char*, double>> named) {
    int slots = 0;
    for (const auto& p : props) slots = std::max(slots, p.index + p.size);
    std::vector<double> v(static_cast<std::size_t>(slots), 0.0);
    for (const auto& [name, value] : named)
        for (const auto& p : props)
            if (p.name == name) v[static_cast<std::size_t>(p.index)] = value;
    return v;
}

void check_range(const std::string& object, const std::string& what, double value, double lo, double hi,
                 const std::string& hardware) {
    if (value < lo || value > hi)
        throw invalid_parameter(object, what, std::to_string(static_cast<long long>(value)),
                                "does not fit " + hardware + " (" + std::to_string(static_cast<long long>(lo)) + ".." +
                                    std::to_string(static_cast<long long>(hi)) + "); use fewer bits (--quantize)");
}

std::unique_ptr<hw::neuroprocessor> make_processor(const head_network& h) {
    const auto& params = h.network.associated_data.at("proc_params");
    if (h.hardware == head_hardware::risp) return std::make_unique<hw::risp_processor>(params);
    return std::make_unique<danna::danna2_processor>(danna::danna2_params::from_json(params));
}

void add_costs(hw::cost_report& sum, const hw::cost_report& c, bool first) {
    if (first) {
        sum = c;
        return;
    }
    sum.cycles += c.cycles;
    for (const auto& [kind, n] : c.events) sum.events[kind] += n;
}

}  // namespace

std::string to_string(head_hardware h) { return h == head_hardware::risp ? "risp" : "danna2"; }

head_hardware head_hardware_from_name(const std::string& name, const std::string& object) {
    if (name == "risp") return head_hardware::risp;
    if (name == "danna2") return head_hardware::danna2;
    throw invalid_parameter(object, "hardware", name, "expected risp or danna2");
}

double head_threshold_limit(head_hardware h) {
    return h == head_hardware::danna2 ? danna::danna2_params{}.limits.max_threshold - 1 : 0;
}

head_network export_head(const quantized_snn& q, head_hardware hardware) {
    const auto& net = q.snn;
    if (q.head_first == 0 || q.head_first >= net.layers.size())
        throw unsupported_model(net.source_file + ": layer '" + net.layers.back().name + "'",
                                "the output layer is not fed by a dense projection from a spiking layer: no "
                                "classifier head to export");
    head_network h;
    h.hardware = hardware;
    const std::size_t n_layers = net.layers.size() - q.head_first;
    h.inputs = net.layers[q.head_first - 1].size();
    h.bias_node = static_cast<hw::node_id>(h.inputs);
    h.classes = net.layers.back().size();
    h.input_delay = delay_steps(dense_projection(net, q.head_first));
    h.latency = static_cast<std::int64_t>(n_layers);
    const std::string hw_name = to_string(hardware);

    // Value ranges the network needs, then the processor's parameters.
    double max_threshold = 1, max_weight = 1;
    std::int64_t max_delay = static_cast<std::int64_t>(n_layers);
    for (std::size_t l = q.head_first; l < net.layers.size(); ++l) {
        max_threshold = std::max(max_threshold, static_cast<double>(q.layers[l].threshold) + 1);
        const auto& p = dense_projection(net, l);
        for (double w : std::get<std::vector<double>>(p.synapse.weight)) max_weight = std::max(max_weight, std::abs(w));
        for (double b : bias_of(net, l)) max_weight = std::max(max_weight, std::abs(b));
        if (l > q.head_first) max_delay = std::max(max_delay, 1 + delay_steps(p));
    }
    nlohmann::json params;
    if (hardware == head_hardware::risp) {
        const auto mt = static_cast<std::int64_t>(max_threshold), mw = static_cast<std::int64_t>(max_weight);
        params = {{"discrete", true},   {"max_delay", max_delay},
                  {"min_threshold", 0}, {"max_threshold", mt},
                  {"min_potential", -2147483647},  // the lowest RISP accepts (int32): far below any head charge
                  {"min_weight", -mw},  {"max_weight", mw},
                  {"spike_value_factor", mw}, {"threshold_inclusive", true}, {"leak_mode", "none"}};
    } else {
        params = danna::danna2_params{}.to_json();
    }
    auto& n = h.network;
    n.associated_data = {{"other", {{"proc_name", hw_name}}}, {"proc_params", params},
                         {"volley_head", {{"model", net.source_file}, {"bits", q.bits},
                                          {"input_layer", net.layers[q.head_first - 1].name},
                                          {"input_delay", h.input_delay}, {"latency", h.latency}}}};
    const auto proc = make_processor(h);
    const auto pack = proc->network_properties();
    const auto* thr = pack.find_node("Threshold");
    const auto* wgt = pack.find_edge("Weight");
    const auto* del = pack.find_edge("Delay");
    if (!thr || !wgt || !del) throw internal_error(hw_name + " has no Threshold, Weight or Delay property");

    n.properties = pack;
    auto add_node = [&](hw::node_id id, double threshold, const std::string& name) {
        const std::string object = hw_name + " head node " + std::to_string(id) + " (" + name + ")";
        check_range(object, "Threshold", threshold, thr->min_value, thr->max_value, hw_name);
        hw::tennlab_node node;
        node.id = id;
        node.values = values(pack.node, {{"Threshold", threshold}, {"Refractory", 0.0}});
        node.name = name;
        n.nodes.push_back(std::move(node));
    };
    auto add_edge = [&](hw::node_id from, hw::node_id to, double weight, std::int64_t delay) {
        if (weight == 0) return;  // a zero weight changes no charge: no synapse
        const std::string object = hw_name + " head edge " + std::to_string(from) + " -> " + std::to_string(to);
        check_range(object, "Weight", weight, wgt->min_value, wgt->max_value, hw_name);
        check_range(object, "Delay", static_cast<double>(delay), std::max(1.0, del->min_value), del->max_value, hw_name);
        n.edges.push_back({from, to, values(pack.edge, {{"Weight", weight}, {"Delay", static_cast<double>(delay)}}), nullptr, nullptr});
    };
    for (std::size_t i = 0; i < h.inputs; ++i) {
        add_node(static_cast<hw::node_id>(i), 1, net.layers[q.head_first - 1].name + "[" + std::to_string(i) + "]");
        n.inputs.push_back(static_cast<hw::node_id>(i));
    }
    add_node(h.bias_node, 1, "bias");
    n.inputs.push_back(h.bias_node);
    hw::node_id next = h.bias_node + 1;
    for (std::size_t l = q.head_first; l < net.layers.size(); ++l) {
        h.layer_first.push_back(next);
        for (std::size_t j = 0; j < net.layers[l].size(); ++j)
            add_node(next + static_cast<hw::node_id>(j), static_cast<double>(q.layers[l].threshold) + 1,
                     net.layers[l].name + "[" + std::to_string(j) + "]");
        next += static_cast<hw::node_id>(net.layers[l].size());
    }
    for (std::size_t j = 0; j < h.classes; ++j) n.outputs.push_back(h.layer_first.back() + static_cast<hw::node_id>(j));
    for (std::size_t l = q.head_first; l < net.layers.size(); ++l) {
        const std::size_t k = l - q.head_first;
        const auto& p = dense_projection(net, l);
        const auto& w = std::get<std::vector<double>>(p.synapse.weight);
        const std::size_t n_in = net.layers[l - 1].size(), n_out = net.layers[l].size();
        const hw::node_id src0 = k == 0 ? 0 : h.layer_first[k - 1];
        const std::int64_t delay = k == 0 ? 1 : 1 + delay_steps(p);
        for (std::size_t i = 0; i < n_in; ++i)
            for (std::size_t j = 0; j < n_out; ++j)
                add_edge(src0 + static_cast<hw::node_id>(i), h.layer_first[k] + static_cast<hw::node_id>(j), w[i * n_out + j], delay);
        const auto b = bias_of(net, l);
        for (std::size_t j = 0; j < n_out; ++j)
            add_edge(h.bias_node, h.layer_first[k] + static_cast<hw::node_id>(j), b[j], static_cast<std::int64_t>(k) + 1);
    }
    // The processor must accept it as written.
    proc->load_network(n);
    return h;
}

head_check_result check_head_on_hardware(const quantized_snn& q, const head_network& head,
                                         std::span<const float> images, const head_check_options& options) {
    return check_heads_on_hardware(q, std::span<const head_network>(&head, 1), images, options).front();
}

std::vector<head_check_result> check_heads_on_hardware(const quantized_snn& q, std::span<const head_network> heads,
                                                       std::span<const float> images, const head_check_options& options) {
    const auto& net = q.snn;
    const std::size_t size = net.image_size();
    if (size == 0 || images.size() % size != 0)
        throw invalid_parameter(net.source_file, "images", std::to_string(images.size()) + " values",
                                "not a whole number of images of " + std::to_string(size) + " pixels");
    if (options.timesteps < 1)
        throw invalid_parameter("head check", "timesteps", std::to_string(options.timesteps), "must be >= 1");
    check_thread_count("head check", options.threads, /*zero_allowed=*/false);
    if (heads.empty()) throw invalid_parameter("head check", "heads", "0", "give at least one exported head");
    const std::size_t n = images.size() / size;
    const std::int64_t T = options.timesteps;
    const auto below = net.layers[q.head_first - 1].population;
    const auto out_pop = net.layers.back().population;
    const std::size_t classes = net.layers.back().size();
    const std::size_t nh = heads.size();
    std::vector<double> charge_lo(nh, -2147483647.0), charge_hi(nh, std::numeric_limits<double>::infinity());
    for (std::size_t h = 0; h < nh; ++h) {
        if (heads[h].classes != classes || heads[h].inputs != net.layers[q.head_first - 1].size())
            throw invalid_parameter("head check", "head " + std::to_string(h), to_string(heads[h].hardware),
                                    "was not exported from this network");
        if (heads[h].hardware == head_hardware::danna2) {
            const auto p = danna::danna2_params::from_json(heads[h].network.associated_data.at("proc_params"));
            charge_lo[h] = p.rules.charge_min;
            charge_hi[h] = p.rules.charge_max;
        }
    }

    struct outcome {
        std::int32_t hardware = 0;
        bool same_counts = false, same_charges = false, beyond = false;
        std::uint64_t hardware_spikes = 0;
        hw::cost_report cost;
    };
    struct image_outcome {
        std::int32_t engine = 0;
        std::uint64_t engine_spikes = 0, inputs = 0;
        std::vector<outcome> per_head;
    };
    std::vector<image_outcome> outcomes(n);
    const auto t0 = std::chrono::steady_clock::now();
    detail::run_image_workers(detail::worker_count(options.threads, n), n, [&](int, auto&& take) {
        evaluation_options eval;
        eval.timesteps = {T};
        snn::simulation sim(net.network, snn::context{.threads = 1}, snn::simulation_options{.dt_ms = 1.0, .seed = eval.seed});
        auto in_spikes = sim.record_spikes(below);
        auto out_spikes = sim.record_spikes(out_pop);
        auto out_v = sim.record_state(out_pop, "v", 1.0);
        std::vector<std::unique_ptr<hw::neuroprocessor>> procs;
        for (const auto& head : heads) {
            procs.push_back(make_processor(head));
            procs.back()->load_network(head.network);
        }
        for (std::size_t i; take(i);) {
            const auto image = images.subspan(i * size, size);
            sim.reset();
            if (net.input) sim.set_input(*net.input, volley::snn::step_table_input{detail::input_table(net, image, i, eval)});
            else sim.set_input(net.layers.front().population, volley::snn::constant_input{net.first_layer_current(image)});
            sim.run(static_cast<double>(T));
            image_outcome io;
            std::vector<std::uint32_t> counts(classes, 0);
            for (const auto id : out_spikes.node_ids()) ++counts[id];
            io.engine_spikes = out_spikes.size();
            const auto& d = out_v.data();
            if (d.sample_steps.empty() || d.sample_steps.back() != T)
                throw internal_error("the output membrane was not sampled at step " + std::to_string(T));
            const std::vector<double> v(d.values.end() - static_cast<std::ptrdiff_t>(classes), d.values.end());
            io.engine = spike_count_readout(counts, v);

            for (std::size_t h = 0; h < nh; ++h) {
                const auto& head = heads[h];
                auto& proc = *procs[h];
                proc.clear_activity();
                if (auto* risp = dynamic_cast<hw::risp_processor*>(&proc)) (void)risp->take_counters();
                std::vector<hw::spike> spikes;
                for (std::size_t k = 0; k < in_spikes.size(); ++k) {
                    // The engine stamps a spike of update u with step u + 1; the head integrates it at u + d_in.
                    const std::int64_t at = in_spikes.steps()[k] - 1 + head.input_delay;
                    if (at < T) spikes.push_back({in_spikes.node_ids()[k], static_cast<double>(at), 1.0});
                }
                io.inputs = spikes.size();
                for (std::int64_t t = 0; t < T; ++t) spikes.push_back({head.bias_node, static_cast<double>(t), 1.0});
                proc.apply_spikes(spikes, false);
                proc.run(static_cast<double>(T + head.latency));
                const auto hw_counts = proc.output_counts();
                const auto charges = proc.neuron_charges();  // by ascending id: the outputs are the last ids
                outcome o;
                std::vector<std::uint32_t> hc(classes);
                const std::vector<double> hv(charges.end() - static_cast<std::ptrdiff_t>(classes), charges.end());
                o.same_counts = true;
                for (std::size_t j = 0; j < classes; ++j) {
                    hc[j] = static_cast<std::uint32_t>(hw_counts[j]);
                    o.hardware_spikes += hc[j];
                    o.same_counts = o.same_counts && hc[j] == counts[j];
                }
                o.same_charges = hv == v;
                for (const double x : v) o.beyond = o.beyond || x < charge_lo[h] || x > charge_hi[h];
                o.hardware = spike_count_readout(hc, hv);
                o.cost = proc.costs();
                io.per_head.push_back(std::move(o));
            }
            outcomes[i] = std::move(io);
        }
    });

    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<head_check_result> results(nh);
    for (std::size_t h = 0; h < nh; ++h) {
        auto& r = results[h];
        r.images = n;
        r.timesteps = T;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& io = outcomes[i];
            const auto& o = io.per_head[h];
            r.engine_predictions.push_back(io.engine);
            r.hardware_predictions.push_back(o.hardware);
            r.same_prediction += io.engine == o.hardware;
            r.same_counts += o.same_counts;
            r.same_charges += o.same_charges;
            r.charge_beyond_range += o.beyond;
            r.engine_output_spikes += io.engine_spikes;
            r.hardware_output_spikes += o.hardware_spikes;
            r.input_spikes += io.inputs;
            add_costs(r.cost, o.cost, i == 0);
        }
        r.wall_s = wall;
    }
    return results;
}

}  // namespace volley::convert
