// The command-line run driver (see run_driver.hpp).

#include "run_driver.hpp"

#include "cli_common.hpp"
#include "mpi_launch.hpp"
#include "progress_bar.hpp"

#include <volley/error.hpp>
#include <volley/snn/raster_plot.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/spike_checksum.hpp>
#include <volley/snn/spike_csv.hpp>
#include <volley/snn/weights_file.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>

namespace volley::cli {

namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_sigint(int) { interrupted.store(true); }

/// Installs the Ctrl-C handler for the life of a run, and restores the previous one.
class sigint_guard {
public:
    sigint_guard() : previous_(std::signal(SIGINT, on_sigint)) { interrupted.store(false); }
    ~sigint_guard() { std::signal(SIGINT, previous_); }

private:
    void (*previous_)(int);
};

bool is_csv(const std::filesystem::path& p) { return p.extension() == ".csv"; }

/// Streams recorded spikes (and state samples) into the SONATA file as the run goes, so that
/// an interrupted or failed run leaves a valid file with everything up to the last flush.
class hdf5_stream {
public:
    hdf5_stream(const std::filesystem::path& file, const std::vector<snn::spike_recorder>& spikes,
                const std::vector<snn::state_recorder>& states)
        : file_(file), spikes_(spikes), states_(states), writer_(file) {
        for (const auto& r : spikes_) writer_.add_population(r.data().population);
        written_.assign(spikes_.size(), 0);
        writer_.flush();  // the layout is on disk before the first step: a killed run leaves a valid file
    }

    void append_new() {
        for (std::size_t k = 0; k < spikes_.size(); ++k) {
            const auto& d = spikes_[k].data();
            const std::size_t b = written_[k], e = d.steps.size();
            if (b == e) continue;
            std::vector<std::uint64_t> ids(d.node_ids.begin() + static_cast<std::ptrdiff_t>(b), d.node_ids.end());
            writer_.append(k, ids, snn::spike_times_ms(d, b, e));
            written_[k] = e;
        }
        writer_.flush();
    }

    /// Writes the remaining spikes, closes the spike file and adds the state reports.
    void finish() {
        append_new();
        writer_.close();
        if (states_.empty()) return;
        auto reports = snn::sonata_report_writer::append_to(file_);
        for (const auto& s : states_) {
            const auto& d = s.data();
            std::vector<std::uint64_t> ids(d.node_ids.begin(), d.node_ids.end());
            const double t0 = d.sample_steps.empty() ? 0.0 : static_cast<double>(d.sample_steps[0]) * d.dt_ms;
            const auto r = reports.add_report(d.population, d.variable, d.variable.ends_with("_mv") ? "mV" : "",
                                              ids, t0, static_cast<double>(d.interval_steps) * d.dt_ms);
            for (std::size_t i = 0; i < s.samples(); ++i)
                reports.append(r, std::span<const double>(d.values).subspan(i * ids.size(), ids.size()));
        }
        reports.close();
    }

private:
    std::filesystem::path file_;
    const std::vector<snn::spike_recorder>& spikes_;
    const std::vector<snn::state_recorder>& states_;
    snn::sonata_spike_writer writer_;
    std::vector<std::size_t> written_;
};

std::vector<snn::population_spikes> as_population_spikes(const std::vector<snn::spike_recorder>& recs) {
    std::vector<snn::population_spikes> out;
    for (const auto& r : recs) out.push_back({r.data().population, {r.node_ids().begin(), r.node_ids().end()}, r.times_ms()});
    return out;
}

void write_plot(const std::filesystem::path& file, const std::vector<snn::spike_recorder>& recs,
                const run_request& req, double t_stop_ms) {
    std::vector<snn::raster_population> pops;
    for (const auto& r : recs) {
        if (snn::is_source_model(req.net.at(r.data().pop).model)) continue;
        pops.push_back({r.data().population, r.data().population_size, {r.node_ids().begin(), r.node_ids().end()}, r.times_ms()});
    }
    snn::raster_plot_options opt;
    opt.title = req.title;
    opt.t_start_ms = 0;
    opt.t_stop_ms = t_stop_ms > 0 ? t_stop_ms : req.settings.dt_ms;
    snn::write_raster_svg(file, pops, opt);
}

/// Adds the final weights of every plastic projection to the .h5 output (/weights).
void write_plastic_weights(const std::filesystem::path& file, const snn::simulation& sim) {
    std::vector<snn::projection_weight_record> records;
    const auto& net = sim.model();
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& proj = net.projections()[q];
        if (!snn::is_plastic(proj.synapse.plasticity)) continue;
        auto w = sim.weights(q);
        snn::projection_weight_record r;
        r.projection = static_cast<std::uint32_t>(q);
        r.source = net.at(proj.source).name;
        r.target = net.at(proj.target).name;
        r.rule = snn::plasticity_name(proj.synapse.plasticity);
        r.sources = std::move(w.sources);
        r.targets = std::move(w.targets);
        r.weights = std::move(w.weights);
        r.time_ms = sim.time_ms();
        records.push_back(std::move(r));
    }
    if (!records.empty()) snn::write_weights(file, records);
}

/// Every rank's recorded spikes, merged on each rank in (step, neuron) order: what one process
/// would have recorded (each rank records its own neurons).
std::vector<snn::spike_recorder> gather_recordings(const std::vector<snn::spike_recorder>& recs,
                                                   const snn::distributed_context& dist) {
    std::vector<snn::spike_recorder> merged;
    for (const auto& rec : recs) {
        const auto& d = rec.data();
        std::vector<snn::spike_event> mine(rec.size());
        for (std::size_t i = 0; i < rec.size(); ++i) mine[i] = {d.steps[i], d.first_neuron + d.node_ids[i]};
        auto all = dist.gather_spikes(mine).events;
        std::sort(all.begin(), all.end(), [](const snn::spike_event& a, const snn::spike_event& b) {
            return a.step != b.step ? a.step < b.step : a.neuron < b.neuron;
        });
        auto out = std::make_shared<snn::spike_data>(d);
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

/// Refuses what a run on several ranks cannot do yet, naming the option.
void check_distributed_request(const run_request& req, int ranks) {
    const std::string why = "not supported on " + std::to_string(ranks) + " MPI ranks yet (run on one rank)";
    if (req.checkpoint) throw invalid_parameter("--checkpoint", "file", req.checkpoint->string(), why);
    if (req.resume) throw invalid_parameter("--resume", "file", req.resume->string(), why);
    if (!req.states.empty()) throw invalid_parameter("--state", "variable", req.states.front().variable, why);
    for (const auto& q : req.net.projections())
        if (snn::is_plastic(q.synapse.plasticity) && req.out && !is_csv(*req.out))
            throw invalid_parameter("--out", "file", req.out->string(),
                                    "the final plastic weights are " + why);
}

}  // namespace

state_request parse_state_request(const std::string& text) {
    state_request r;
    const auto a = text.find(':');
    const auto b = a == std::string::npos ? a : text.find(':', a + 1);
    if (a == std::string::npos || a == 0 || a + 1 == text.size())
        throw invalid_parameter("--state", "value", text, "expected POP:VAR[:INTERVAL_MS]");
    r.population = text.substr(0, a);
    r.variable = text.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
    if (b != std::string::npos) {
        try {
            std::size_t used = 0;
            r.interval_ms = std::stod(text.substr(b + 1), &used);
            if (used != text.size() - b - 1) throw std::invalid_argument("trailing characters");
        } catch (const std::exception&) {
            throw invalid_parameter("--state", "interval", text.substr(b + 1), "not a number");
        }
    }
    return r;
}

/// Runs `steps` steps, writing the checkpoint every checkpoint_every_ms on the way; false when
/// the progress callback stopped the run.
bool run_with_checkpoints(snn::simulation& sim, const run_request& req, std::int64_t steps) {
    const double dt = req.settings.dt_ms;
    if (!req.checkpoint || req.checkpoint_every_ms <= 0) return sim.run(static_cast<double>(steps) * dt);
    const auto every = std::max<std::int64_t>(1, std::llround(req.checkpoint_every_ms / dt));
    for (std::int64_t done = 0; done < steps;) {
        const std::int64_t chunk = std::min(every, steps - done);
        if (!sim.run(static_cast<double>(chunk) * dt)) return false;
        done += chunk;
        if (done < steps) sim.checkpoint(*req.checkpoint);  // the last one is written by the caller
    }
    return true;
}

run_outcome execute_run(const run_request& req) {
    snn::context where{.threads = req.threads};
    where.distributed = launch_context();
    if (req.projection) {
        if (where.distributed.size() > 1)
            throw invalid_parameter("--project-ranks", "ranks", std::to_string(req.projection->ranks),
                                    "a projection runs one rank alone: start it without mpirun");
        if (!req.count_only)
            throw invalid_parameter("--project-ranks", "ranks", std::to_string(req.projection->ranks),
                                    "needs --count-only (the mirrored spikes are not the network's)");
        where.distributed = snn::projected_rank(req.net, 0, req.projection->ranks, req.projection->record);
    }
    where.backend = req.backend;
    if (req.backend == snn::backend_kind::cuda) where.gpu_id = 0;
    const snn::distributed_context& dist = where.distributed;
    const bool distributed = dist.size() > 1;
    if (distributed) check_distributed_request(req, dist.size());
    snn::simulation sim(req.net, where,
                        {.dt_ms = req.settings.dt_ms,
                         .seed = req.settings.seed,
                         .max_isa = req.max_isa,
                         .step_pairs = req.step_pairs});
    // Before the recorders (a state recorder samples the state it starts at) and before any
    // output is opened (a bad checkpoint costs nothing).
    if (req.resume) sim.restore(*req.resume);
    const std::int64_t start_step = sim.current_step().value;
    // A restored engine counts from t = 0; the summary covers this run's span only.
    const auto at_start = sim.stats();
    if (req.count_only && (req.out || req.plot || !req.states.empty()))
        throw invalid_parameter("--count-only", "outputs", req.out ? req.out->string() : req.plot ? req.plot->string() : "--state",
                                "spikes that are only counted cannot be written or plotted");
    // recs[rec_of[p]] records population p; rec_of[p] = -1 when it is not recorded.
    std::vector<snn::spike_recorder> recs;
    std::vector<int> rec_of(req.net.populations().size(), -1);
    if (!req.count_only)
        for (std::uint32_t p = 0; p < req.net.populations().size(); ++p)
            if (req.record_sources || !snn::is_source_model(req.net.populations()[p].model)) {
                rec_of[p] = static_cast<int>(recs.size());
                recs.push_back(sim.record_spikes({p}));
            }
    std::vector<snn::state_recorder> states;
    for (const auto& s : req.states) {
        if (!req.out || is_csv(*req.out))
            throw invalid_parameter("--state", "output", req.out ? req.out->string() : "(none)",
                                    "state recording needs an .h5 output (--out FILE.h5)");
        states.push_back(sim.record_state(req.net.find(s.population), s.variable, s.interval_ms));
    }


    // Outputs are opened only now that the network is valid and built.
    // On several ranks the spikes are gathered to every rank after the run and written by rank 0.
    std::unique_ptr<hdf5_stream> stream;
    if (req.out && !is_csv(*req.out) && !distributed) stream = std::make_unique<hdf5_stream>(*req.out, recs, states);

    const auto steps = snn::duration_steps(req.settings.duration_ms, req.settings.dt_ms, "run", "duration_ms");
    progress_bar bar(!req.quiet && stderr_is_terminal() && dist.id() == 0, req.settings.duration_ms);  // one bar, rank 0's
    auto last_flush = std::chrono::steady_clock::now();
    sim.on_progress(
        [&](std::int64_t, std::int64_t) {
            bar.update(static_cast<double>(sim.current_step().value - start_step) * req.settings.dt_ms);
            const auto now = std::chrono::steady_clock::now();
            if (stream && now - last_flush >= std::chrono::duration<double>(req.flush_every_s)) {
                stream->append_new();
                last_flush = now;
            }
            return !interrupted.load();
        },
        (std::min<std::int64_t>(steps / 200 + 1, 1000) + 1) / 2 * 2);  // even: the engine may step in pairs

    bool completed = false;
    {
        sigint_guard guard;
        try {
            completed = run_with_checkpoints(sim, req, steps);
        } catch (...) {
            if (stream) stream->finish();  // keep what was recorded
            throw;
        }
    }
    if (req.checkpoint) sim.checkpoint(*req.checkpoint);  // also when interrupted: the run resumes from there
    bar.finish();
    if (distributed) {
        recs = gather_recordings(recs, dist);
        if (dist.id() == 0 && req.out && !is_csv(*req.out)) stream = std::make_unique<hdf5_stream>(*req.out, recs, states);
    }
    const bool writes = dist.id() == 0;
    if (stream) {
        stream->finish();
        write_plastic_weights(*req.out, sim);
    }
    if (writes && req.out && is_csv(*req.out)) {
        const auto pops = as_population_spikes(recs);
        snn::write_spike_csv(*req.out, pops);
    }
    if (writes && req.plot) write_plot(*req.plot, recs, req, sim.time_ms());

    auto st = sim.stats();
    st.spikes -= at_start.spikes;
    st.synaptic_events -= at_start.synaptic_events;
    for (std::size_t p = 0; p < st.population_spikes.size() && p < at_start.population_spikes.size(); ++p)
        st.population_spikes[p] -= at_start.population_spikes[p];
    if (distributed) {  // every rank's counts; the slowest rank's times
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
    std::vector<std::pair<std::uint32_t, std::int64_t>> pairs;
    nlohmann::json pops = nlohmann::json::array();
    std::uint64_t neuron_spikes = 0, neuron_count = 0;
    const double start_ms = static_cast<double>(start_step) * req.settings.dt_ms;
    const double bio_s = (sim.time_ms() - start_ms) / 1000.0;
    for (std::uint32_t p = 0; p < req.net.populations().size(); ++p) {
        const auto& pop = req.net.populations()[p];
        // The engine's count, which the recorder's (when there is one) equals.
        const std::uint64_t spikes = st.population_spikes[p];
        const snn::spike_recorder* rec = rec_of[p] >= 0 ? &recs[static_cast<std::size_t>(rec_of[p])] : nullptr;
        if (rec) {
            const auto& d = rec->data();
            for (std::size_t i = 0; i < rec->size(); ++i) pairs.emplace_back(d.first_neuron + d.node_ids[i], d.steps[i]);
        }
        if (!snn::is_source_model(pop.model)) {
            neuron_spikes += spikes;
            neuron_count += pop.size;
        }
        pops.push_back({{"name", pop.name},
                        {"model", snn::model_name(pop.model)},
                        {"size", pop.size},
                        {"spikes", spikes},
                        {"mean_rate_hz", bio_s > 0 ? static_cast<double>(spikes) / (bio_s * pop.size) : 0.0}});
        if (const auto* in = snn::model_integrator(pop.model)) pops.back()["integrator"] = snn::scheme_name(in->scheme);
        if (req.transient_ms > 0 && rec && sim.time_ms() > req.transient_ms) {
            const auto from = static_cast<std::int64_t>(std::llround(req.transient_ms / req.settings.dt_ms));
            const auto& steps = rec->data().steps;
            const auto after = std::count_if(steps.begin(), steps.end(), [&](std::int64_t s) { return s >= from; });
            pops.back()["rate_after_transient_hz"] =
                static_cast<double>(after) / ((sim.time_ms() - req.transient_ms) / 1000.0 * pop.size);
        }
    }
    nlohmann::json f;
    f["neurons"] = st.neurons;
    f["synapses"] = st.synapses;
    f["spikes"] = st.spikes;
    f["synaptic_events"] = st.synaptic_events;
    f["mean_rate_hz"] = neuron_count > 0 && bio_s > 0 ? static_cast<double>(neuron_spikes) / (bio_s * static_cast<double>(neuron_count)) : 0.0;
    f["build_s"] = st.build_s;
    f["sim_s"] = st.sim_s;
    if (dist.size() > 1) {  // this rank's (rank 0's) time in the spike exchange, waiting included
        f["exchange_s"] = st.exchange_s;
        f["exchange_share"] = st.sim_s > 0 ? st.exchange_s / st.sim_s : 0.0;
    }
    f["events_per_s"] = st.sim_s > 0 ? static_cast<double>(st.synaptic_events) / st.sim_s : 0.0;
    f["real_time_factor"] = bio_s > 0 ? st.sim_s / bio_s : 0.0;
    f["peak_rss_bytes"] = peak_rss_bytes();
    f["bytes_per_synapse"] = st.synapses > 0 ? static_cast<double>(st.synapse_table_bytes) / static_cast<double>(st.synapses) : 0.0;
    f["threads"] = st.threads;
    f["backend"] = req.backend == snn::backend_kind::cuda       ? "cuda"
                   : req.backend == snn::backend_kind::portable ? "portable"
                                                                : "cpu";
    f["ranks"] = dist.size();
    if (st.plastic_synapses > 0) {
        f["plastic_synapses"] = st.plastic_synapses;
        f["bytes_per_plastic_synapse"] = static_cast<double>(st.plastic_table_bytes) / static_cast<double>(st.plastic_synapses);
    }
    if (!req.count_only) f["spike_checksum"] = snn::spike_checksum(std::move(pairs));
    f["populations"] = pops;
    f["dt_ms"] = req.settings.dt_ms;
    f["duration_ms"] = sim.time_ms() - start_ms;
    if (req.resume) {  // spikes, events, rates and the checksum cover [start_ms, start_ms + duration_ms]
        f["resumed_from"] = req.resume->string();
        f["start_ms"] = start_ms;
    }
    if (req.checkpoint) f["checkpoint"] = req.checkpoint->string();
    f["seed"] = req.settings.seed;
    f["completed"] = completed;
    if (req.out) f["output"] = req.out->string();
    if (req.plot) f["plot"] = req.plot->string();
    return {f, completed};
}

void apply_integrator_option(snn::network& net, const std::string& scheme) {
    const auto s = snn::scheme_from_name(scheme, "--integrator");
    bool any = false;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) {
        const auto* in = snn::model_integrator(net.populations()[p].model);
        if (!in) continue;
        auto changed = *in;
        changed.scheme = s;
        net.set_integrator(snn::population_index{p}, changed);
        any = true;
    }
    if (!any)
        throw invalid_parameter("--integrator", "integrator", scheme,
                                "the network has no ODE population (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh)");
}

void print_run_summary(const nlohmann::json& f) {
    std::printf("%-12s %10s %10s %12s\n", "population", "neurons", "spikes", "rate [Hz]");
    for (const auto& p : f["populations"])
        std::printf("%-12s %10llu %10llu %12.3f\n", p["name"].get<std::string>().c_str(),
                    p["size"].get<unsigned long long>(), p["spikes"].get<unsigned long long>(), p["mean_rate_hz"].get<double>());
    const int ranks = f.value("ranks", 1);
    std::printf("simulated %.1f ms at dt = %g ms on %d thread(s)%s\n", f["duration_ms"].get<double>(), f["dt_ms"].get<double>(),
                f["threads"].get<int>(), ranks > 1 ? (" x " + std::to_string(ranks) + " MPI ranks").c_str() : "");
    std::printf("build %.3f s, simulation %.3f s (real-time factor %.3f)\n", f["build_s"].get<double>(), f["sim_s"].get<double>(),
                f["real_time_factor"].get<double>());
    std::printf("%llu synapses (%.2f bytes each), %llu synaptic events, %.3g events/s\n",
                f["synapses"].get<unsigned long long>(), f["bytes_per_synapse"].get<double>(),
                f["synaptic_events"].get<unsigned long long>(), f["events_per_s"].get<double>());
    std::printf("mean rate %.3f Hz, peak RSS %.1f MiB, raster SHA-256 %s\n", f["mean_rate_hz"].get<double>(),
                static_cast<double>(f["peak_rss_bytes"].get<unsigned long long>()) / (1 << 20),
                f.contains("spike_checksum") ? f["spike_checksum"].get<std::string>().c_str() : "(not recorded)");
    if (f.contains("output")) std::printf("spikes written to %s\n", f["output"].get<std::string>().c_str());
    if (f.contains("plot")) std::printf("raster plot written to %s\n", f["plot"].get<std::string>().c_str());
    if (f.contains("checkpoint")) std::printf("checkpoint written to %s\n", f["checkpoint"].get<std::string>().c_str());
    if (f.contains("resumed_from"))
        std::printf("resumed from %s at %.1f ms: spikes, events, rates and the checksum cover %.1f to %.1f ms\n",
                    f["resumed_from"].get<std::string>().c_str(), f["start_ms"].get<double>(), f["start_ms"].get<double>(),
                    f["start_ms"].get<double>() + f["duration_ms"].get<double>());
}

}  // namespace volley::cli
