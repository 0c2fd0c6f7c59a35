// The figures of a recorded run (run_figures.hpp, run_figures_json.hpp, recording/run_span.hpp).

#include <volley/snn/run_figures.hpp>
#include <volley/snn/run_figures_json.hpp>
#include <volley/snn/spike_checksum.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

#include <sys/resource.h>

#include "recording/run_span.hpp"

namespace volley::snn {

std::size_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

namespace detail {

namespace {

/// The engine's figures over the span: less those at its start, and on several ranks every
/// rank's counts and the slowest rank's times.
simulation_stats span_stats(const simulation& sim, const simulation_stats& at_start) {
    auto st = sim.stats();
    st.spikes -= at_start.spikes;
    st.synaptic_events -= at_start.synaptic_events;
    for (std::size_t p = 0; p < st.population_spikes.size() && p < at_start.population_spikes.size(); ++p)
        st.population_spikes[p] -= at_start.population_spikes[p];
    const distributed_context& dist = sim.execution_context().distributed;
    if (dist.size() > 1) {
        auto sum = [&](std::uint64_t x) { return static_cast<std::uint64_t>(dist.sum(static_cast<std::int64_t>(x))); };
        st.synapses = sum(st.synapses);
        st.synapse_table_bytes = sum(st.synapse_table_bytes);
        st.plastic_synapses = sum(st.plastic_synapses);
        st.plastic_table_bytes = sum(st.plastic_table_bytes);
        st.spikes = sum(st.spikes);
        st.synaptic_events = sum(st.synaptic_events);
        for (auto& n : st.population_spikes) n = sum(n);
        auto slowest = [&](double s) { return -static_cast<double>(dist.min(-std::llround(s * 1e9))) * 1e-9; };
        st.build_s = slowest(st.build_s);
        st.sim_s = slowest(st.sim_s);
    }
    return st;
}

const char* backend_word(backend_kind b) {
    return b == backend_kind::cuda ? "cuda" : b == backend_kind::portable ? "portable" : "cpu";
}

}  // namespace

run_figures figures_of(const run_span& span, const recorded_run_options& options) {
    const simulation& sim = span.sim;
    const network& net = sim.model();
    const double dt = sim.options().dt_ms;
    const auto st = span_stats(sim, span.at_start);
    run_figures f;
    std::vector<std::pair<std::uint32_t, std::int64_t>> pairs;
    std::uint64_t neuron_spikes = 0, neuron_count = 0;
    const double start_ms = static_cast<double>(span.start_step) * dt;
    const double bio_s = (sim.time_ms() - start_ms) / 1000.0;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) {
        const auto& pop = net.populations()[p];
        // The engine's count, which the recorder's (when there is one) equals.
        const std::uint64_t spikes = st.population_spikes[p];
        const spike_recorder* rec = span.rec_of[p] >= 0 ? &span.recs[static_cast<std::size_t>(span.rec_of[p])] : nullptr;
        if (rec) {
            const auto& d = rec->data();
            for (std::size_t i = 0; i < rec->size(); ++i) pairs.emplace_back(d.first_neuron + d.node_ids[i], d.steps[i]);
        }
        if (!is_source_model(pop.model)) {
            neuron_spikes += spikes;
            neuron_count += pop.size;
        }
        population_figures pf{.name = pop.name,
                              .model = model_name(pop.model),
                              .size = pop.size,
                              .spikes = spikes,
                              .mean_rate_hz = bio_s > 0 ? static_cast<double>(spikes) / (bio_s * pop.size) : 0.0};
        if (const auto* in = model_integrator(pop.model)) pf.integrator = scheme_name(in->scheme);
        if (options.transient_ms > 0 && rec && sim.time_ms() > options.transient_ms) {
            const auto from = static_cast<std::int64_t>(std::llround(options.transient_ms / dt));
            const auto& steps = rec->data().steps;
            const auto after = std::count_if(steps.begin(), steps.end(), [&](std::int64_t s) { return s >= from; });
            pf.rate_after_transient_hz = static_cast<double>(after) / ((sim.time_ms() - options.transient_ms) / 1000.0 * pop.size);
        }
        f.populations.push_back(std::move(pf));
    }
    const int ranks = sim.execution_context().distributed.size();
    f.neurons = st.neurons;
    f.synapses = st.synapses;
    f.spikes = st.spikes;
    f.synaptic_events = st.synaptic_events;
    f.mean_rate_hz = neuron_count > 0 && bio_s > 0
                         ? static_cast<double>(neuron_spikes) / (bio_s * static_cast<double>(neuron_count))
                         : 0.0;
    f.build_s = st.build_s;
    f.sim_s = st.sim_s;
    if (ranks > 1) {  // this rank's (rank 0's) time in the spike exchange, waiting included
        f.exchange_s = st.exchange_s;
        f.exchange_share = st.sim_s > 0 ? st.exchange_s / st.sim_s : 0.0;
    }
    f.events_per_s = st.sim_s > 0 ? static_cast<double>(st.synaptic_events) / st.sim_s : 0.0;
    f.real_time_factor = bio_s > 0 ? st.sim_s / bio_s : 0.0;
    f.peak_rss_bytes = peak_rss_bytes();
    f.bytes_per_synapse =
        st.synapses > 0 ? static_cast<double>(st.synapse_table_bytes) / static_cast<double>(st.synapses) : 0.0;
    f.threads = st.threads;
    f.backend = backend_word(resolved_backend(sim.execution_context()));
    f.ranks = ranks;
    if (st.plastic_synapses > 0) {
        f.plastic_synapses = st.plastic_synapses;
        f.bytes_per_plastic_synapse =
            static_cast<double>(st.plastic_table_bytes) / static_cast<double>(st.plastic_synapses);
    }
    if (!options.count_only) f.spike_checksum = spike_checksum(std::move(pairs));
    f.dt_ms = dt;
    f.duration_ms = sim.time_ms() - start_ms;
    f.start_ms = start_ms;
    f.resumed_from = options.resume;
    f.checkpoint = options.checkpoint;
    f.seed = sim.options().seed;
    f.completed = span.completed;
    f.output = options.out;
    f.plot = options.plot;
    return f;
}

}  // namespace detail

nlohmann::json run_figures_json(const run_figures& r) {
    nlohmann::json pops = nlohmann::json::array();
    for (const auto& p : r.populations) {
        nlohmann::json j{{"name", p.name}, {"model", p.model}, {"size", p.size}, {"spikes", p.spikes},
                         {"mean_rate_hz", p.mean_rate_hz}};
        if (p.integrator) j["integrator"] = *p.integrator;
        if (p.rate_after_transient_hz) j["rate_after_transient_hz"] = *p.rate_after_transient_hz;
        pops.push_back(std::move(j));
    }
    nlohmann::json f;
    f["neurons"] = r.neurons;
    f["synapses"] = r.synapses;
    f["spikes"] = r.spikes;
    f["synaptic_events"] = r.synaptic_events;
    f["mean_rate_hz"] = r.mean_rate_hz;
    f["build_s"] = r.build_s;
    f["sim_s"] = r.sim_s;
    if (r.exchange_s) f["exchange_s"] = *r.exchange_s;
    if (r.exchange_share) f["exchange_share"] = *r.exchange_share;
    f["events_per_s"] = r.events_per_s;
    f["real_time_factor"] = r.real_time_factor;
    f["peak_rss_bytes"] = r.peak_rss_bytes;
    f["bytes_per_synapse"] = r.bytes_per_synapse;
    f["threads"] = r.threads;
    f["backend"] = r.backend;
    f["ranks"] = r.ranks;
    if (r.plastic_synapses) f["plastic_synapses"] = *r.plastic_synapses;
    if (r.bytes_per_plastic_synapse) f["bytes_per_plastic_synapse"] = *r.bytes_per_plastic_synapse;
    if (r.spike_checksum) f["spike_checksum"] = *r.spike_checksum;
    f["populations"] = pops;
    f["dt_ms"] = r.dt_ms;
    f["duration_ms"] = r.duration_ms;
    if (r.resumed_from) {  // spikes, events, rates and the checksum cover [start_ms, start_ms + duration_ms]
        f["resumed_from"] = r.resumed_from->string();
        f["start_ms"] = r.start_ms;
    }
    if (r.checkpoint) f["checkpoint"] = r.checkpoint->string();
    f["seed"] = r.seed;
    f["completed"] = r.completed;
    if (r.output) f["output"] = r.output->string();
    if (r.plot) f["plot"] = r.plot->string();
    return f;
}

}  // namespace volley::snn
