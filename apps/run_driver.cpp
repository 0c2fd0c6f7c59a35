// The command-line run driver (see run_driver.hpp).

#include "run_driver.hpp"

#include "cli_common.hpp"
#include "mpi_launch.hpp"
#include "progress_bar.hpp"

#include <volley/error.hpp>
#include <volley/snn/run_figures_json.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>

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

/// Refuses, naming the command-line option, what the library would refuse naming its field.
void check_request(const run_request& req, int ranks) {
    const auto& o = req.recording;
    if (ranks > 1) {
        const std::string why = "not supported on " + std::to_string(ranks) + " MPI ranks yet (run on one rank)";
        if (o.checkpoint) throw invalid_parameter("--checkpoint", "file", o.checkpoint->string(), why);
        if (o.resume) throw invalid_parameter("--resume", "file", o.resume->string(), why);
        if (!o.states.empty()) throw invalid_parameter("--state", "variable", o.states.front().variable, why);
        for (const auto& q : req.net.projections())
            if (snn::is_plastic(q.synapse.plasticity) && o.out && !is_csv(*o.out))
                throw invalid_parameter("--out", "file", o.out->string(), "the final plastic weights are " + why);
    }
    if (o.count_only && (o.out || o.plot || !o.states.empty()))
        throw invalid_parameter("--count-only", "outputs", o.out ? o.out->string() : o.plot ? o.plot->string() : "--state",
                                "spikes that are only counted cannot be written or plotted");
    if (!o.states.empty() && (!o.out || is_csv(*o.out)))
        throw invalid_parameter("--state", "output", o.out ? o.out->string() : "(none)",
                                "state recording needs an .h5 output (--out FILE.h5)");
}

}  // namespace

run_outcome execute_run(const run_request& req) {
    snn::context where{.threads = req.threads};
    where.distributed = launch_context();
    if (req.projection) {
        if (where.distributed.size() > 1)
            throw invalid_parameter("--project-ranks", "ranks", std::to_string(req.projection->ranks),
                                    "a projection runs one rank alone: start it without mpirun");
        if (!req.recording.count_only)
            throw invalid_parameter("--project-ranks", "ranks", std::to_string(req.projection->ranks),
                                    "needs --count-only (the mirrored spikes are not the network's)");
        where.distributed = snn::projected_rank(req.net, 0, req.projection->ranks, req.projection->record);
    }
    where.backend = req.backend;
    if (req.backend == snn::backend_kind::cuda) where.gpu_id = 0;
    const int rank = where.distributed.id();
    check_request(req, where.distributed.size());
    snn::simulation sim(req.net, where,
                        {.dt_ms = req.settings.dt_ms,
                         .seed = req.settings.seed,
                         .max_isa = req.max_isa,
                         .step_pairs = req.step_pairs});
    progress_bar bar(!req.quiet && stderr_is_terminal() && rank == 0, req.settings.duration_ms);  // one bar, rank 0's
    const snn::run_observer observer{.progress = [&](double done_ms, double) { bar.update(done_ms); },
                                     .stop = &interrupted};
    snn::run_figures figures;
    {
        sigint_guard guard;
        figures = snn::run_recorded(sim, req.settings.duration_ms, req.recording, observer);
    }
    bar.finish();
    return {snn::run_figures_json(figures), figures.completed};
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
