// The one-rank distributed context (see volley/snn/distributed_context.hpp).

#include <volley/snn/distributed_context.hpp>

namespace volley::snn {

namespace {

struct local_rank {
    int id() const { return 0; }
    int size() const { return 1; }
    std::string name() const { return "local"; }
    gathered_spikes gather_spikes(std::span<const spike_event> local) const {
        return {{local.begin(), local.end()}, {0, local.size()}};
    }
    std::vector<double> gather_values(std::span<const double> local) const { return {local.begin(), local.end()}; }
    std::int64_t min(std::int64_t value) const { return value; }
    std::int64_t sum(std::int64_t value) const { return value; }
    void barrier() const {}
};

}  // namespace

distributed_context::distributed_context() : distributed_context(local_rank{}) {}

distributed_context local_context() { return distributed_context{}; }

}  // namespace volley::snn
