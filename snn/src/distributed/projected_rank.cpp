// The projected rank: one rank of many, run alone (see volley/snn/distributed_context.hpp).

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>

#include "lowering/domain_decomposition.hpp"
#include "lowering/replicated_sources.hpp"

#include <algorithm>
#include <chrono>

namespace volley::snn {

namespace {

/// The neurons whose spikes a rank sends (its domain less the replicated spike sources, which
/// every rank draws itself: cpu_engine_exchange.cpp), as runs of consecutive global ids.
struct sent_neurons {
    std::vector<std::uint32_t> first;   ///< of each run
    std::vector<std::uint32_t> offset;  ///< the run's first position; offset.back() = the count

    std::uint32_t count() const { return offset.back(); }
    /// The position of global id `id` among them; id must be one of them.
    std::uint32_t position(std::uint32_t id) const {
        const auto k = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), id) - first.begin() - 1);
        return offset[k] + (id - first[k]);
    }
    /// The global id at `pos` < count().
    std::uint32_t id(std::uint32_t pos) const {
        const auto k = static_cast<std::size_t>(std::upper_bound(offset.begin(), offset.end() - 1, pos) - offset.begin() - 1);
        return first[k] + (pos - offset[k]);
    }
};

std::vector<sent_neurons> sent_by_rank(const network& net, int ranks) {
    const auto bounds = detail::rank_bounds(net, ranks);
    std::vector<sent_neurons> out(static_cast<std::size_t>(ranks));
    for (auto& s : out) s.offset.push_back(0);
    std::uint32_t first = 0;
    for (const auto& pop : net.populations()) {
        const bool replicated = detail::is_replicated_model(pop.model);
        const std::uint32_t end = first + pop.size;
        for (int r = 0; r < ranks && !replicated; ++r) {
            const std::uint32_t lo = std::max(first, bounds[static_cast<std::size_t>(r)]);
            const std::uint32_t hi = std::min(end, bounds[static_cast<std::size_t>(r) + 1]);
            if (lo >= hi) continue;
            auto& s = out[static_cast<std::size_t>(r)];
            s.first.push_back(lo);
            s.offset.push_back(s.offset.back() + (hi - lo));
        }
        first = end;
    }
    return out;
}

struct projected_state {
    int rank = 0, ranks = 1;
    std::vector<sent_neurons> sent;
    std::shared_ptr<projection_record> record;
};

struct projected_rank_impl {
    std::shared_ptr<projected_state> st;

    int id() const { return st->rank; }
    int size() const { return st->ranks; }
    std::string name() const { return "projected"; }

    gathered_spikes gather_spikes(std::span<const spike_event> local) const {
        const auto start = std::chrono::steady_clock::now();
        auto& rec = *st->record;
        const auto& mine = st->sent[static_cast<std::size_t>(st->rank)];
        std::vector<std::uint32_t> pos(local.size());  // each spike's position among the neurons this rank sends
        for (std::size_t k = 0; k < local.size(); ++k) pos[k] = mine.position(local[k].neuron);
        gathered_spikes out;
        out.partition.push_back(0);
        for (int r = 0; r < st->ranks; ++r) {
            if (r == st->rank) {
                out.events.insert(out.events.end(), local.begin(), local.end());
            } else {
                const auto& theirs = st->sent[static_cast<std::size_t>(r)];
                for (std::size_t k = 0; k < local.size(); ++k)
                    if (pos[k] < theirs.count()) out.events.push_back({local[k].step, theirs.id(pos[k])});
            }
            out.partition.push_back(out.events.size());
        }
        rec.sent_events.push_back(local.size());
        rec.gathered_events.push_back(out.events.size());
        rec.mirror_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return out;
    }
    std::vector<double> gather_values(std::span<const double> local) const {
        std::vector<double> out;
        for (int r = 0; r < st->ranks; ++r) out.insert(out.end(), local.begin(), local.end());
        return out;
    }
    std::int64_t min(std::int64_t value) const { return value; }
    std::int64_t sum(std::int64_t value) const { return value * st->ranks; }
    void barrier() const {}
};

}  // namespace

distributed_context projected_rank(const network& net, int rank, int ranks, std::shared_ptr<projection_record> record) {
    if (ranks < 1) throw invalid_parameter("projected rank", "ranks", std::to_string(ranks), "must be >= 1");
    if (rank < 0 || rank >= ranks)
        throw invalid_parameter("projected rank", "rank", std::to_string(rank), "must be in [0, " + std::to_string(ranks) + ")");
    if (!record) throw invalid_parameter("projected rank", "record", "null", "must point to a projection_record");
    auto st = std::make_shared<projected_state>();
    st->rank = rank;
    st->ranks = ranks;
    st->sent = sent_by_rank(net, ranks);
    st->record = std::move(record);
    return distributed_context(projected_rank_impl{std::move(st)});
}

}  // namespace volley::snn
