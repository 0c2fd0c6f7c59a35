#pragma once
// The distributed context: how the ranks of one simulation agree and exchange spikes
// (docs/engine.md, "Epochs and ranks"). A simulation whose context has size() > 1 owns the
// neurons of one domain (its rank's share of the network); it advances in epochs as long as
// the shortest delay, and between epochs every rank hands the spikes of its domain to
// gather_spikes and delivers every other rank's spikes onto its own neurons. The interface is
// type-erased (any type with the members of distributed_context::interface plugs in), so that
// an MPI implementation needs no change to the engine.
//
// Four implementations are built in: local_context(), one rank; dry_run(), which imitates N
// ranks in one process, each on its own thread with its own simulation, exchanging through
// memory (the same raster as one rank, for testing a partition without MPI); projected_rank(),
// one rank of N run alone with the others' spikes mirrored from its own (a projection of the
// work of a rank on a cluster, bench/mpi/README.md); and mpi_world_context() in a build with MPI.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace volley::snn {

class network;

/// A spike as ranks exchange it: the step it was emitted in and the neuron's global id (the
/// population's first neuron plus its index).
struct spike_event {
    std::int64_t step = 0;
    std::uint32_t neuron = 0;
    friend bool operator==(const spike_event&, const spike_event&) = default;
};

/// Every rank's spikes of an epoch: those of rank r are events[partition[r], partition[r + 1]).
struct gathered_spikes {
    std::vector<spike_event> events;
    std::vector<std::size_t> partition;  ///< size() + 1 offsets
};

class distributed_context {
public:
    /// What an implementation provides; every call but id(), size() and name() is collective
    /// (every rank makes it, in the same order).
    struct interface {
        virtual ~interface() = default;
        virtual int id() const = 0;
        virtual int size() const = 0;
        virtual std::string name() const = 0;
        virtual gathered_spikes gather_spikes(std::span<const spike_event> local) const = 0;
        virtual std::vector<double> gather_values(std::span<const double> local) const = 0;
        virtual std::int64_t min(std::int64_t value) const = 0;
        virtual std::int64_t sum(std::int64_t value) const = 0;
        virtual void barrier() const = 0;
    };

    /// One rank (local_context()).
    distributed_context();
    /// Wraps an implementation: any type with the members of `interface` (not derived from it).
    template <class Impl>
        requires(!std::is_same_v<std::decay_t<Impl>, distributed_context>)
    explicit distributed_context(Impl impl) : impl_(std::make_shared<const wrap<Impl>>(std::move(impl))) {}

    int id() const { return impl_->id(); }      ///< this rank, in [0, size())
    int size() const { return impl_->size(); }  ///< the number of ranks, >= 1
    std::string name() const { return impl_->name(); }  ///< "local", "dry-run", "mpi"
    /// Every rank's `local` spikes, in rank order (collective).
    gathered_spikes gather_spikes(std::span<const spike_event> local) const { return impl_->gather_spikes(local); }
    /// Every rank's `local` values, concatenated in rank order (collective); e.g. the fitness
    /// values of an EONS generation's evaluations (eons::evaluation_share).
    std::vector<double> gather_values(std::span<const double> local) const { return impl_->gather_values(local); }
    /// The smallest of every rank's `value` (collective).
    std::int64_t min(std::int64_t value) const { return impl_->min(value); }
    /// The sum of every rank's `value` (collective).
    std::int64_t sum(std::int64_t value) const { return impl_->sum(value); }
    void barrier() const { impl_->barrier(); }  ///< (collective)

private:
    template <class Impl>
    struct wrap final : interface {
        explicit wrap(Impl i) : impl(std::move(i)) {}
        int id() const override { return impl.id(); }
        int size() const override { return impl.size(); }
        std::string name() const override { return impl.name(); }
        gathered_spikes gather_spikes(std::span<const spike_event> local) const override {
            return impl.gather_spikes(local);
        }
        std::vector<double> gather_values(std::span<const double> local) const override {
            return impl.gather_values(local);
        }
        std::int64_t min(std::int64_t value) const override { return impl.min(value); }
        std::int64_t sum(std::int64_t value) const override { return impl.sum(value); }
        void barrier() const override { impl.barrier(); }
        Impl impl;
    };
    std::shared_ptr<const interface> impl_;
};

/// One rank: gather_spikes returns its input, min and sum their value.
distributed_context local_context();

/// Imitates `ranks` ranks in this process: runs body(context of rank r) for every r, each on its
/// own thread, and returns when all have; a simulation built from rank r's context owns rank
/// r's domain and exchanges spikes with the others through memory. When a body throws, the
/// other ranks' collective calls throw volley::error instead of waiting for it, and the first
/// exception by rank is rethrown here. Throws invalid_parameter for ranks < 1.
void dry_run(int ranks, const std::function<void(const distributed_context&)>& body);

/// What a projected_rank() saw, epoch by epoch (one entry per exchange).
struct projection_record {
    /// The time spent mirroring the other ranks' spikes [s]: not the rank's work.
    double mirror_s = 0;
    std::vector<std::uint64_t> sent_events;      ///< spike events this rank sent
    std::vector<std::uint64_t> gathered_events;  ///< spike events every rank sent, as mirrored
};

/// Rank `rank` of `ranks`, run alone: a simulation of `net` built from this context owns that
/// rank's domain (the same cuts as on `ranks` MPI ranks) and does that rank's work, building
/// only its synapses; the other ranks are not run. In each exchange every other rank's spikes
/// are this rank's, moved to the neurons at the same position among those it sends (NEST's
/// dry run: every rank of a homogeneous network, such as hpc_benchmark's, looks like this one),
/// so the rank receives and delivers the spike volume of the full network. gather_values gives
/// every rank this rank's values, min returns its value and sum its value times `ranks`. The
/// spikes are not the network's: this measures the work and volume of one rank, to project
/// cluster runs from one machine. Each exchange appends to `record`. Throws invalid_parameter
/// for ranks < 1, rank outside [0, ranks) or a null record.
distributed_context projected_rank(const network& net, int rank, int ranks, std::shared_ptr<projection_record> record);

/// Keeps MPI initialised for its lifetime (MPI_Init_thread, MPI_THREAD_FUNNELED: only the
/// thread that made it calls MPI, which the engine honours) and finalises it at the end, unless
/// MPI was already initialised by the caller. Throws volley::error in a build without MPI
/// (volley::snn::build_features().mpi) or when MPI cannot start.
class mpi_session {
public:
    mpi_session(int& argc, char**& argv);
    ~mpi_session();
    mpi_session(const mpi_session&) = delete;
    mpi_session& operator=(const mpi_session&) = delete;
    /// Ends every rank of MPI_COMM_WORLD with `code` (MPI_Abort): what a rank that fails does,
    /// so that no other rank waits for it in a collective call.
    [[noreturn]] static void abort(int code);

private:
    bool owner_ = false;
};

/// The ranks of MPI_COMM_WORLD (MPI must be initialised, e.g. by an mpi_session): spikes are
/// exchanged with MPI_Allgatherv once per epoch. Throws volley::error in a build without MPI
/// or before MPI is initialised.
distributed_context mpi_world_context();

}  // namespace volley::snn
