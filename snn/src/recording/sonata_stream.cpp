// The SONATA output of a recorded run (see sonata_stream.hpp).

#include "recording/sonata_stream.hpp"

#include <volley/snn/plasticity.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/weights_file.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace volley::snn::detail {

sonata_stream::sonata_stream(const std::filesystem::path& file, const std::vector<spike_recorder>& spikes,
                             const std::vector<state_recorder>& states)
    : file_(file), spikes_(spikes), states_(states), writer_(file) {
    for (const auto& r : spikes_) writer_.add_population(r.data().population);
    written_.assign(spikes_.size(), 0);
    writer_.flush();  // the layout is on disk before the first step: a killed run leaves a valid file
}

void sonata_stream::append_new() {
    for (std::size_t k = 0; k < spikes_.size(); ++k) {
        const auto& d = spikes_[k].data();
        const std::size_t b = written_[k], e = d.steps.size();
        if (b == e) continue;
        std::vector<std::uint64_t> ids(d.node_ids.begin() + static_cast<std::ptrdiff_t>(b), d.node_ids.end());
        writer_.append(k, ids, spike_times_ms(d, b, e));
        written_[k] = e;
    }
    writer_.flush();
}

void sonata_stream::finish() {
    append_new();
    writer_.close();
    if (states_.empty()) return;
    auto reports = sonata_report_writer::append_to(file_);
    for (const auto& s : states_) {
        const auto& d = s.data();
        std::vector<std::uint64_t> ids(d.node_ids.begin(), d.node_ids.end());
        const double t0 = d.sample_steps.empty() ? 0.0 : static_cast<double>(d.sample_steps[0]) * d.dt_ms;
        const auto r = reports.add_report(d.population, d.variable, d.variable.ends_with("_mv") ? "mV" : "", ids, t0,
                                          static_cast<double>(d.interval_steps) * d.dt_ms);
        for (std::size_t i = 0; i < s.samples(); ++i)
            reports.append(r, std::span<const double>(d.values).subspan(i * ids.size(), ids.size()));
    }
    reports.close();
}

void write_plastic_weights(const std::filesystem::path& file, const simulation& sim) {
    std::vector<projection_weight_record> records;
    const auto& net = sim.model();
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& proj = net.projections()[q];
        if (!is_plastic(proj.synapse.plasticity)) continue;
        auto w = sim.weights(q);
        projection_weight_record r;
        r.projection = static_cast<std::uint32_t>(q);
        r.source = net.at(proj.source).name;
        r.target = net.at(proj.target).name;
        r.rule = plasticity_name(proj.synapse.plasticity);
        r.sources = std::move(w.sources);
        r.targets = std::move(w.targets);
        r.weights = std::move(w.weights);
        r.time_ms = sim.time_ms();
        records.push_back(std::move(r));
    }
    if (!records.empty()) write_weights(file, records);
}

}  // namespace volley::snn::detail
