// The dry-run distributed context: N imitated ranks, one thread each, exchanging through
// memory (see volley/snn/distributed_context.hpp).

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>

namespace volley::snn {

namespace {

/// What the imitated ranks share: one slot each for the value of a collective call, and a
/// barrier that a failed rank breaks (abort), so that nobody waits for it forever.
class dry_run_state {
public:
    explicit dry_run_state(int ranks) : ranks_(ranks), spikes_(static_cast<std::size_t>(ranks)),
                                        doubles_(static_cast<std::size_t>(ranks)), values_(static_cast<std::size_t>(ranks)) {}

    gathered_spikes gather(int rank, std::span<const spike_event> local) {
        gathered_spikes out;
        out.partition.push_back(0);
        all_gather(rank, local, spikes_, [&](const std::vector<spike_event>& part) {
            out.events.insert(out.events.end(), part.begin(), part.end());
            out.partition.push_back(out.events.size());
        });
        return out;
    }

    std::vector<double> gather_values(int rank, std::span<const double> local) {
        std::vector<double> out;
        all_gather(rank, local, doubles_, [&](const std::vector<double>& part) { out.insert(out.end(), part.begin(), part.end()); });
        return out;
    }

    std::int64_t min(int rank, std::int64_t value) {
        return reduce(rank, value, [](const std::vector<std::int64_t>& v) { return *std::min_element(v.begin(), v.end()); });
    }
    std::int64_t sum(int rank, std::int64_t value) {
        return reduce(rank, value, [](const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); });
    }

    void barrier() {
        std::unique_lock lock(mutex_);
        arrive_and_wait(lock);
    }

    void abort() {
        std::lock_guard lock(mutex_);
        aborted_ = true;
        changed_.notify_all();
    }

    /// A rank's body returned: a rank that still waits in a collective call would wait forever.
    void finish(int rank) {
        std::lock_guard lock(mutex_);
        if (finished_ < 0) finished_ = rank;
        changed_.notify_all();
    }

private:
    /// Puts `local` in rank's slot, waits for every rank's, reads every slot in rank order.
    template <class T, class Read>
    void all_gather(int rank, std::span<const T> local, std::vector<std::vector<T>>& slots, Read&& read) {
        std::unique_lock lock(mutex_);
        slots[static_cast<std::size_t>(rank)].assign(local.begin(), local.end());
        arrive_and_wait(lock);  // every rank's values are in
        for (const auto& part : slots) read(part);
        arrive_and_wait(lock);  // every rank has read them: the slots may be written again
    }

    template <class F>
    std::int64_t reduce(int rank, std::int64_t value, F&& f) {
        std::unique_lock lock(mutex_);
        values_[static_cast<std::size_t>(rank)] = value;
        arrive_and_wait(lock);
        const std::int64_t result = f(values_);
        arrive_and_wait(lock);  // every rank has read the values
        return result;
    }

    void arrive_and_wait(std::unique_lock<std::mutex>& lock) {
        if (aborted_) throw error("dry run: another imitated rank failed");
        if (finished_ >= 0) throw finished_error();
        const std::uint64_t generation = generation_;
        if (++arrived_ == ranks_) {
            arrived_ = 0;
            ++generation_;
            changed_.notify_all();
            return;
        }
        changed_.wait(lock, [&] { return generation_ != generation || aborted_ || finished_ >= 0; });
        if (generation_ != generation) return;
        if (aborted_) throw error("dry run: another imitated rank failed");
        throw finished_error();
    }

    error finished_error() const {
        return error("dry run: rank " + std::to_string(finished_) +
                     " returned while another waits in a collective call (every rank must make the same "
                     "collective calls: build the same network and run it for the same time)");
    }

    const int ranks_;
    std::mutex mutex_;
    std::condition_variable changed_;
    int arrived_ = 0;
    std::uint64_t generation_ = 0;
    bool aborted_ = false;
    int finished_ = -1;  ///< the first rank whose body returned, or -1
    std::vector<std::vector<spike_event>> spikes_;
    std::vector<std::vector<double>> doubles_;
    std::vector<std::int64_t> values_;
};

struct dry_run_rank {
    std::shared_ptr<dry_run_state> state;
    int rank = 0, ranks = 1;
    int id() const { return rank; }
    int size() const { return ranks; }
    std::string name() const { return "dry-run"; }
    gathered_spikes gather_spikes(std::span<const spike_event> local) const { return state->gather(rank, local); }
    std::vector<double> gather_values(std::span<const double> local) const { return state->gather_values(rank, local); }
    std::int64_t min(std::int64_t value) const { return state->min(rank, value); }
    std::int64_t sum(std::int64_t value) const { return state->sum(rank, value); }
    void barrier() const { state->barrier(); }
};

}  // namespace

void dry_run(int ranks, const std::function<void(const distributed_context&)>& body) {
    if (ranks < 1) throw invalid_parameter("dry run", "ranks", std::to_string(ranks), "must be >= 1");
    auto state = std::make_shared<dry_run_state>(ranks);
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            try {
                body(distributed_context(dry_run_rank{state, r, ranks}));
                state->finish(r);
            } catch (...) {
                errors[static_cast<std::size_t>(r)] = std::current_exception();
                state->abort();
            }
        });
    for (auto& t : threads) t.join();
    // A rank that failed first is the cause; the others only saw the barrier break.
    for (auto& e : errors)
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const error& x) {
                if (std::string(x.what()).starts_with("dry run: another")) continue;
                throw;
            }
        }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace volley::snn
