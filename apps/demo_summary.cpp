// The tables of `volley demo` (see demo_summary.hpp).

#include "demo_summary.hpp"

#include "cli_common.hpp"

#include <cmath>
#include <cstdio>

namespace volley::cli {

namespace {

void print_hardware(const pipeline::hardware_stage_result& h) {
    if (!h.ran()) {
        std::printf("hardware stage (danna2, RISP): %s\n", h.note.c_str());
        return;
    }
    char float_text[32] = "-";
    if (!std::isnan(h.float_accuracy)) std::snprintf(float_text, sizeof float_text, "%.2f%%", 100 * h.float_accuracy);
    std::printf("\nclassifier head '%s' (%zu inputs) in %d-bit integer mode at T = %lld on the first %zu images: "
                "engine accuracy %.2f%% (float SNN %s)\n",
                h.head_layer.c_str(), h.head_inputs, h.bits, static_cast<long long>(h.timesteps), h.images,
                100 * h.integer_accuracy, float_text);
    std::printf("%-9s  %10s  %11s  %9s  %13s  %14s  %13s  %13s\n", "processor", "agreement", "same counts", "synapses",
                "cycles/image", "events/image", "time/image", "energy/image");
    for (const auto& d : h.processors) {
        double events = 0;
        for (const auto& [kind, v] : d.events_per_image) events += v;
        std::printf("%-9s  %9.2f%%  %10.2f%%  %9lld  %13.0f  %14.0f  %11.3g s  %11.3g J\n", d.processor.c_str(),
                    100 * d.agreement, 100 * d.same_counts, static_cast<long long>(d.synapses), d.cycles_per_image, events,
                    d.time_s_per_image, d.energy_j_per_image);
    }
    std::printf("(agreement: hardware prediction = the engine integer mode's; clock and energies are the models' "
                "assumptions, docs/danna.md)\n");
}

void print_temporal(const pipeline::temporal_result& t) {
    std::printf("\ntemporal analysis on danna2 (CNN output per frame, 8 frames a sequence; accuracy on test sequences)\n");
    std::printf("%-8s  %9s  %9s  %9s  %10s  %9s  %8s  %9s  %11s  %12s  %12s\n", "question", "evolved", "oracle", "ideal",
                "hand-built", "GRU", "neurons", "synapses", "hand-built", "DANNA grid", "energy/seq");
    for (const auto& r : t.rows) {
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
    const bool from_hand = !t.rows.empty() && t.rows.front().started_from == "hand-built";
    std::printf("(evolved: %s, then EONS on the CNN's training features; oracle: the same network "
                "on the true labels; ideal: exact logic on the CNN's per-frame predictions; GRU: %zu parameters;\n"
                " hand-built: the reference network built by hand from motifs, its accuracy and neurons/synapses; "
                "DANNA grid: elements after place and route, answers equal to danna2's on every test sequence unless DIFF;\n"
                " energy/seq: from the danna2 model's assumed per-event energies (docs/danna.md), not a measurement; "
                "%.0f sequences/s on danna2, %.0f EONS evaluations/s)\n",
                from_hand ? "from the hand-built network (--seed-hand-built)"
                          : "from the network EONS designed from random networks (volley evolve on danna2, oracle "
                            "features, population 100 x 300 generations; temporal/networks)",
                t.rows.empty() ? std::size_t{0} : t.rows.front().gru_parameters, t.sequences_per_s, t.evaluations_per_s);
}

}  // namespace

void print_demo_summary(const pipeline::pipeline_result& p) {
    const auto& ev = p.evaluation;
    std::printf("\nCNN accuracy %.2f%% on these %zu images (%.2f%% on all %zu test images)\n", 100 * ev.cnn_accuracy,
                ev.images, 100 * ev.cnn_accuracy_all, p.test_images_all);
    std::printf("%6s  %12s  %10s  %14s  %15s\n", "T", "SNN accuracy", "agreement", "spikes/image", "synops/image");
    for (const auto& c : ev.snn.checkpoints)
        std::printf("%6lld  %11.2f%%  %9.2f%%  %14.0f  %15.0f\n", static_cast<long long>(c.timesteps), 100 * c.accuracy,
                    100 * c.agreement, c.spikes_per_image, c.synops_per_image);
    std::printf("\n%-16s  %9s  %10s  %12s\n", "layer", "neurons", "lambda", "rate @ T max");
    for (std::size_t l = 0; l < p.layer_names.size(); ++l)
        std::printf("%-16s  %9llu  %10.4g  %12.4f\n", p.layer_names[l].c_str(),
                    static_cast<unsigned long long>(p.layer_neurons[l]), p.layer_lambda[l], p.record.layer_rate[l]);
    std::printf("\n%-22s  %8s\n", "stage", "wall [s]");
    for (const auto& [name, value] : p.stages)
        std::printf("%-22s  %8.2f\n", name.substr(0, name.size() - 2).c_str(), value);
    std::printf("%-22s  %8.2f\n", "total", p.total_s);
    const double images_per_s = ev.snn.wall_s > 0 ? static_cast<double>(ev.images) / ev.snn.wall_s : 0.0;
    std::printf("\nSNN: %.1f images/s, %.3g synaptic events/s on %d threads; peak RSS %.0f MB\n", images_per_s,
                ev.snn.synops_per_s, p.options.threads, static_cast<double>(peak_rss_bytes()) / 1e6);
    print_hardware(p.hardware);
    if (p.temporal) print_temporal(*p.temporal);
    std::string wrote;
    for (const auto& f : p.outputs) wrote += (wrote.empty() ? "" : ", ") + f.string();
    std::printf("wrote %s\n", wrote.c_str());
}

}  // namespace volley::cli
