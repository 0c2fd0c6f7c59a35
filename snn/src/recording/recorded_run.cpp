// A recorded run (see recorded_run.hpp): the recorders, the outputs streamed and finished, the
// checkpoints, and the progress steps at which the observer is told and asked.

#include <volley/error.hpp>
#include <volley/snn/raster_plot.hpp>
#include <volley/snn/recorded_run.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/spike_csv.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "recording/run_span.hpp"
#include "recording/sonata_stream.hpp"

namespace volley::snn {

namespace {

const std::string object = "recorded run";

bool is_csv(const std::filesystem::path& p) { return p.extension() == ".csv"; }

/// Refuses options that do not fit together, naming the option.
void check_options(const recorded_run_options& o) {
    if (o.count_only && (o.out || o.plot || !o.states.empty()))
        throw invalid_parameter(object, "count_only", o.out ? o.out->string() : o.plot ? o.plot->string() : "states",
                                "spikes that are only counted cannot be written or plotted");
    if (!o.states.empty() && (!o.out || is_csv(*o.out)))
        throw invalid_parameter(object, "states", o.out ? o.out->string() : "(no output)",
                                "state recording needs an .h5 output");
    if (!(o.flush_every_s >= 0) || !std::isfinite(o.flush_every_s))
        throw invalid_parameter(object, "flush_every_s", std::to_string(o.flush_every_s), "must be finite and >= 0");
    if (!(o.checkpoint_every_ms >= 0) || !std::isfinite(o.checkpoint_every_ms))
        throw invalid_parameter(object, "checkpoint_every_ms", std::to_string(o.checkpoint_every_ms),
                                "must be finite and >= 0 (0: only at the end)");
    if (o.checkpoint_every_ms > 0 && !o.checkpoint)
        throw invalid_parameter(object, "checkpoint_every_ms", std::to_string(o.checkpoint_every_ms),
                                "needs a checkpoint file to write");
}

/// Refuses what a run on several ranks cannot do yet.
void check_distributed(const recorded_run_options& o, const network& net, int ranks) {
    const std::string why = "not supported on " + std::to_string(ranks) + " MPI ranks yet (run on one rank)";
    if (o.checkpoint) throw invalid_parameter(object, "checkpoint", o.checkpoint->string(), why);
    if (o.resume) throw invalid_parameter(object, "resume", o.resume->string(), why);
    if (!o.states.empty()) throw invalid_parameter(object, "states", o.states.front().variable, why);
    for (const auto& q : net.projections())
        if (is_plastic(q.synapse.plasticity) && o.out && !is_csv(*o.out))
            throw invalid_parameter(object, "out", o.out->string(), "the final plastic weights are " + why);
}

/// Every rank's recorded spikes, merged on each rank in (step, neuron) order: what one process
/// would have recorded (each rank records its own neurons).
std::vector<spike_recorder> gather_recordings(const std::vector<spike_recorder>& recs, const distributed_context& dist) {
    std::vector<spike_recorder> merged;
    for (const auto& rec : recs) {
        const auto& d = rec.data();
        std::vector<spike_event> mine(rec.size());
        for (std::size_t i = 0; i < rec.size(); ++i) mine[i] = {d.steps[i], d.first_neuron + d.node_ids[i]};
        auto all = dist.gather_spikes(mine).events;
        std::sort(all.begin(), all.end(), [](const spike_event& a, const spike_event& b) {
            return a.step != b.step ? a.step < b.step : a.neuron < b.neuron;
        });
        auto out = std::make_shared<spike_data>(d);
        out->node_ids.clear();
        out->steps.clear();
        for (const auto& e : all) {
            out->node_ids.push_back(e.neuron - d.first_neuron);
            out->steps.push_back(e.step);
        }
        merged.emplace_back(std::move(out));
    }
    return merged;
}

std::vector<population_spikes> as_population_spikes(const std::vector<spike_recorder>& recs) {
    std::vector<population_spikes> out;
    for (const auto& r : recs)
        out.push_back({r.data().population, {r.node_ids().begin(), r.node_ids().end()}, r.times_ms()});
    return out;
}

/// The raster of the neurons (not the sources) with their rates, from 0 to `t_stop_ms`.
void write_plot(const std::filesystem::path& file, const std::vector<spike_recorder>& recs, const network& net,
                const std::string& title, double t_stop_ms, double dt_ms) {
    std::vector<raster_population> pops;
    for (const auto& r : recs) {
        if (is_source_model(net.at(r.data().pop).model)) continue;
        pops.push_back({r.data().population, r.data().population_size, {r.node_ids().begin(), r.node_ids().end()},
                        r.times_ms()});
    }
    raster_plot_options opt;
    opt.title = title;
    opt.t_start_ms = 0;
    opt.t_stop_ms = t_stop_ms > 0 ? t_stop_ms : dt_ms;
    write_raster_svg(file, pops, opt);
}

/// Runs `steps` steps, writing the checkpoint every checkpoint_every_ms on the way; false when
/// the progress callback stopped the run.
bool run_with_checkpoints(simulation& sim, const recorded_run_options& o, std::int64_t steps) {
    const double dt = sim.options().dt_ms;
    if (!o.checkpoint || o.checkpoint_every_ms <= 0) return sim.run(static_cast<double>(steps) * dt);
    const auto every = std::max<std::int64_t>(1, std::llround(o.checkpoint_every_ms / dt));
    for (std::int64_t done = 0; done < steps;) {
        const std::int64_t chunk = std::min(every, steps - done);
        if (!sim.run(static_cast<double>(chunk) * dt)) return false;
        done += chunk;
        if (done < steps) sim.checkpoint(*o.checkpoint);  // the last one is written at the end
    }
    return true;
}

/// Whatever way the run ends: the progress callback (which refers to the run's locals) is
/// cleared and the recorders the run attached are stopped.
class attachments {
public:
    explicit attachments(simulation& sim) : sim_(sim) {}
    ~attachments() {
        sim_.on_progress({}, 0);
        for (const auto& r : spikes) sim_.stop_recording(r);
        for (const auto& r : states) sim_.stop_recording(r);
    }
    attachments(const attachments&) = delete;
    attachments& operator=(const attachments&) = delete;

    std::vector<spike_recorder> spikes;
    std::vector<state_recorder> states;

private:
    simulation& sim_;
};

}  // namespace

state_request parse_state_request(const std::string& text, const std::string& option) {
    state_request r;
    const auto a = text.find(':');
    const auto b = a == std::string::npos ? a : text.find(':', a + 1);
    if (a == std::string::npos || a == 0 || a + 1 == text.size())
        throw invalid_parameter(option, "value", text, "expected POP:VAR[:INTERVAL_MS]");
    r.population = text.substr(0, a);
    r.variable = text.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
    if (b != std::string::npos) {
        try {
            std::size_t used = 0;
            r.interval_ms = std::stod(text.substr(b + 1), &used);
            if (used != text.size() - b - 1) throw std::invalid_argument("trailing characters");
        } catch (const std::exception&) {
            throw invalid_parameter(option, "interval", text.substr(b + 1), "not a number");
        }
    }
    return r;
}

run_figures run_recorded(simulation& sim, double duration_ms, const recorded_run_options& o,
                         const run_observer& observer) {
    const network& net = sim.model();
    const double dt = sim.options().dt_ms;
    const distributed_context& dist = sim.execution_context().distributed;
    const bool distributed = dist.size() > 1;
    check_options(o);
    if (distributed) check_distributed(o, net, dist.size());
    const auto steps = duration_steps(duration_ms, dt, "run", "duration_ms");
    // Before the recorders (a state recorder samples the state it starts at) and before any
    // output is opened (a bad checkpoint costs nothing).
    if (o.resume) sim.restore(*o.resume);
    const std::int64_t start_step = sim.current_step().value;
    // A restored engine counts from t = 0; the figures cover this run's span only.
    const auto at_start = sim.stats();

    attachments att(sim);
    auto& recs = att.spikes;
    std::vector<int> rec_of(net.populations().size(), -1);
    if (!o.count_only)
        for (std::uint32_t p = 0; p < net.populations().size(); ++p)
            if (o.record_sources || !is_source_model(net.populations()[p].model)) {
                rec_of[p] = static_cast<int>(recs.size());
                recs.push_back(sim.record_spikes({p}));
            }
    for (const auto& s : o.states) att.states.push_back(sim.record_state(net.find(s.population), s.variable, s.interval_ms));

    // Outputs are opened only now that the network is valid and built. On several ranks the
    // spikes are gathered to every rank after the run and written by rank 0.
    std::unique_ptr<detail::sonata_stream> stream;
    if (o.out && !is_csv(*o.out) && !distributed) stream = std::make_unique<detail::sonata_stream>(*o.out, recs, att.states);

    auto last_flush = std::chrono::steady_clock::now();
    sim.on_progress(
        [&](std::int64_t, std::int64_t) {
            if (observer.progress) observer.progress(static_cast<double>(sim.current_step().value - start_step) * dt, duration_ms);
            const auto now = std::chrono::steady_clock::now();
            if (stream && now - last_flush >= std::chrono::duration<double>(o.flush_every_s)) {
                stream->append_new();
                last_flush = now;
            }
            return !(observer.stop && observer.stop->load());
        },
        (std::min<std::int64_t>(steps / 200 + 1, 1000) + 1) / 2 * 2);  // even: the engine may step in pairs

    bool completed = false;
    try {
        completed = run_with_checkpoints(sim, o, steps);
    } catch (...) {
        if (stream) stream->finish();  // keep what was recorded
        throw;
    }
    if (o.checkpoint) sim.checkpoint(*o.checkpoint);  // also when stopped: the run resumes from there
    std::vector<spike_recorder> merged;
    if (distributed) {
        merged = gather_recordings(recs, dist);
        if (dist.id() == 0 && o.out && !is_csv(*o.out))
            stream = std::make_unique<detail::sonata_stream>(*o.out, merged, att.states);
    }
    const auto& written = distributed ? merged : recs;
    const bool writes = dist.id() == 0;
    if (stream) {
        stream->finish();
        detail::write_plastic_weights(*o.out, sim);
    }
    if (writes && o.out && is_csv(*o.out)) write_spike_csv(*o.out, as_population_spikes(written));
    if (writes && o.plot) write_plot(*o.plot, written, net, o.plot_title, sim.time_ms(), dt);
    return detail::figures_of({sim, written, rec_of, at_start, start_step, completed}, o);
}

run_figures run_recorded(const network& net, const context& where, const simulation_options& sim_options,
                         double duration_ms, const recorded_run_options& options, const run_observer& observer) {
    simulation sim(net, where, sim_options);
    return run_recorded(sim, duration_ms, options, observer);
}

}  // namespace volley::snn
