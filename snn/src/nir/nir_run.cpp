// Running a mapped NIR graph (see nir_network.hpp). The engine handles NIR step t of a
// population of depth d in engine step t + d (nir_to_network.cpp), so a run of N steps takes
// N + max_depth engine steps, a spike stamped s belongs to NIR step s − d − 1, and a bias must
// start in engine step d, not 0: the run switches each population's bias on at its depth.

#include <volley/error.hpp>
#include <volley/snn/nir_network.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/simulation.hpp>

#include <algorithm>
#include <numeric>

namespace volley::snn {

nir_run_result run_nir(const nir_network& model, const std::vector<std::vector<std::vector<double>>>& inputs,
                       std::int64_t steps, int threads, const std::vector<std::string>& record_v) {
    check_run_steps(steps, "NIR run", "steps", model.max_depth());
    if (inputs.size() != model.inputs.size())
        throw invalid_parameter("NIR run", "inputs", std::to_string(inputs.size()) + " tables",
                                "the graph has " + std::to_string(model.inputs.size()) + " Input nodes");
    const double dt_ms = model.options.dt_s * 1000;
    simulation sim(model.net, context{.threads = threads}, {.dt_ms = dt_ms});
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const auto& p = model.population(model.inputs[k]);
        const std::size_t n = model.net.at(p.pop).size;
        for (std::size_t t = 0; t < inputs[k].size(); ++t)
            if (inputs[k][t].size() != n)
                throw invalid_parameter("NIR Input '" + p.node + "'", "input row " + std::to_string(t),
                                        std::to_string(inputs[k][t].size()) + " values",
                                        "expected " + std::to_string(n) + " (the Input's shape)");
        sim.set_input(p.pop, volley::snn::step_table_input{inputs[k]});
    }
    std::vector<spike_recorder> spikes;
    for (const auto& p : model.populations) spikes.push_back(sim.record_spikes(p.pop));
    std::vector<std::pair<std::string, state_recorder>> states;
    std::vector<std::string> recorded = record_v;
    for (const auto& o : model.outputs)  // a readout's value is its v
        if (model.populations[o.pop.value].type == "Output" &&
            std::find(recorded.begin(), recorded.end(), o.node) == recorded.end())
            recorded.push_back(o.node);
    for (const auto& name : recorded) {
        const auto& p = model.population(name);
        if (p.type == "Input") throw invalid_parameter("NIR run", "record_v", name, "an Input node has no membrane");
        states.emplace_back(name, sim.record_state(p.pop, "v", dt_ms));
    }
    std::int64_t bias_until = 0;
    for (const auto& p : model.populations)
        if (!p.bias.empty()) {
            sim.set_input(p.pop, volley::snn::constant_input{std::vector<double>(p.bias.size(), 0.0)});
            bias_until = std::max(bias_until, p.depth);
        }
    const std::int64_t total = steps + model.max_depth();
    std::int64_t done = 0;
    for (; done < std::min(total, bias_until + 1); ++done) {
        for (const auto& p : model.populations)
            if (!p.bias.empty() && p.depth == done) sim.set_input(p.pop, volley::snn::constant_input{p.bias});
        sim.run(dt_ms);
    }
    if (total > done) sim.run(static_cast<double>(total - done) * dt_ms);

    nir_run_result out;
    out.steps = steps;
    auto nir_step = [](const nir_population& p, std::int64_t stamp) { return stamp - p.depth - 1; };
    // Spikes of population k in NIR steps [0, steps), sorted by (step, neuron).
    auto aligned = [&](std::size_t k, const std::string& name) {
        nir_run_result::output_spikes os{name, {}, {}};
        const auto& p = model.populations[k];
        std::vector<std::pair<std::int64_t, std::uint32_t>> ev;
        if (p.type != "Input")
            for (std::size_t i = 0; i < spikes[k].size(); ++i) {
                const auto t = nir_step(p, spikes[k].steps()[i]);
                if (t >= 0 && t < steps) ev.emplace_back(t, spikes[k].node_ids()[i]);
            }
        std::sort(ev.begin(), ev.end());
        for (const auto& [t, i] : ev) {
            os.steps.push_back(t);
            os.neurons.push_back(i);
        }
        return os;
    };
    for (std::size_t k = 0; k < model.populations.size(); ++k) {
        const auto& p = model.populations[k];
        if (p.type == "Input") continue;
        out.layers.push_back(aligned(k, p.node));
        out.spike_counts[p.node] = out.layers.back().steps.size();
    }
    for (const auto& o : model.outputs) out.outputs.push_back(aligned(o.pop.value, o.node));
    for (const auto& [name, rec] : states) {
        const auto& p = model.population(name);
        const std::size_t n = rec.node_ids().size();
        auto& v = out.v[name];
        for (std::int64_t t = 0; t < steps; ++t) {
            const auto sample = static_cast<std::size_t>(t + p.depth + 1);
            std::vector<double> row(n);
            for (std::size_t i = 0; i < n; ++i) row[i] = rec.at(sample, i);
            v.push_back(std::move(row));
        }
    }
    return out;
}

}  // namespace volley::snn
