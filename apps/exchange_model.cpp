// The modelled spike exchange (see exchange_model.hpp).

#include "exchange_model.hpp"

#include <algorithm>
#include <cmath>

namespace volley::cli {

double allgatherv_s(const exchange_model& m, int ranks, std::uint64_t bytes) {
    if (ranks <= 1) return 0.0;
    const double steps = std::ceil(std::log2(static_cast<double>(ranks)));
    return m.latency_s * steps + static_cast<double>(bytes) * (ranks - 1) / ranks / m.bandwidth_bytes_s;
}

nlohmann::json projection_figures(const snn::projection_record& rec, int ranks, const exchange_model& m, double sim_s,
                                  double bio_s) {
    constexpr std::uint64_t event_bytes = sizeof(snn::spike_event);  // as mpi_world_context sends them
    const std::size_t epochs = rec.gathered_events.size();
    double exchange = 0;
    std::uint64_t sent = 0, gathered = 0;
    for (std::size_t e = 0; e < epochs; ++e) {
        sent += rec.sent_events[e];
        gathered += rec.gathered_events[e];
        exchange += allgatherv_s(m, ranks, rec.gathered_events[e] * event_bytes);
    }
    const double work = std::max(0.0, sim_s - rec.mirror_s);
    const double per_epoch = epochs > 0 ? 1.0 / static_cast<double>(epochs) : 0.0;
    return {{"ranks", ranks},
            {"rank", 0},
            {"epochs", epochs},
            {"rank_work_s", work},
            {"mirror_s", rec.mirror_s},
            {"sent_events_per_epoch", static_cast<double>(sent) * per_epoch},
            {"gathered_events_per_epoch", static_cast<double>(gathered) * per_epoch},
            {"gathered_bytes_per_epoch", static_cast<double>(gathered * event_bytes) * per_epoch},
            {"model_latency_us", m.latency_s * 1e6},
            {"model_bandwidth_gb_s", m.bandwidth_bytes_s * 1e-9},
            {"modelled_exchange_s", exchange},
            {"modelled_sim_s", work + exchange},
            {"modelled_exchange_share", work + exchange > 0 ? exchange / (work + exchange) : 0.0},
            {"modelled_real_time_factor", bio_s > 0 ? (work + exchange) / bio_s : 0.0}};
}

}  // namespace volley::cli
