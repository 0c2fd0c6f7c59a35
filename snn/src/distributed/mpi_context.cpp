// The MPI distributed context (see volley/snn/distributed_context.hpp): MPI_COMM_WORLD's ranks,
// spikes exchanged with MPI_Allgatherv of (step, global id) pairs once per epoch. Built only
// with MPI (VOLLEY_HAVE_MPI); otherwise its entry points say so.

#include <volley/config.hpp>
#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>

#if VOLLEY_HAVE_MPI
#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <type_traits>
#endif

#include <cstdlib>

namespace volley::snn {

#if VOLLEY_HAVE_MPI

namespace {

void check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw error(std::string("MPI: ") + call + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

struct mpi_rank {
    int rank = 0, ranks = 1;
    int id() const { return rank; }
    int size() const { return ranks; }
    std::string name() const { return "mpi"; }

    /// Every rank's `local` in rank order (MPI_Allgatherv of bytes); `counts` gets each rank's
    /// element count.
    template <class T>
    std::vector<T> all_gather(std::span<const T> local, const char* what, std::vector<std::size_t>& counts) const {
        static_assert(std::is_trivially_copyable_v<T>);
        constexpr std::size_t bytes = sizeof(T);
        if (local.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) / bytes)
            throw error(std::string("MPI ") + what + ": " + std::to_string(local.size()) + " items on rank " +
                        std::to_string(rank) + " exceed MPI's int counts");
        const int mine = static_cast<int>(local.size() * bytes);
        std::vector<int> sizes(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
        check(MPI_Allgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
        std::int64_t total = 0;
        for (int r = 0; r < ranks; ++r) {
            offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
            total += sizes[static_cast<std::size_t>(r)];
            if (total > std::numeric_limits<int>::max())
                throw error(std::string("MPI ") + what + ": the ranks' items exceed MPI's int displacements");
        }
        std::vector<T> out(static_cast<std::size_t>(total) / bytes);
        check(MPI_Allgatherv(local.data(), mine, MPI_BYTE, out.data(), sizes.data(), offsets.data(), MPI_BYTE,
                             MPI_COMM_WORLD),
              "MPI_Allgatherv");
        counts.clear();
        for (const int b : sizes) counts.push_back(static_cast<std::size_t>(b) / bytes);
        return out;
    }

    gathered_spikes gather_spikes(std::span<const spike_event> local) const {
        std::vector<std::size_t> counts;
        gathered_spikes out;
        out.events = all_gather(local, "spike exchange", counts);
        out.partition.push_back(0);
        for (const auto c : counts) out.partition.push_back(out.partition.back() + c);
        return out;
    }

    std::vector<double> gather_values(std::span<const double> local) const {
        std::vector<std::size_t> counts;
        return all_gather(local, "value exchange", counts);
    }

    std::int64_t min(std::int64_t value) const {
        std::int64_t result = 0;
        check(MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
        return result;
    }

    std::int64_t sum(std::int64_t value) const {
        std::int64_t result = 0;
        check(MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
        return result;
    }

    void barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
};

}  // namespace

mpi_session::mpi_session(int& argc, char**& argv) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised) return;
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    owner_ = true;
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        throw error("MPI: the library gives thread level " + std::to_string(provided) +
                    ", below MPI_THREAD_FUNNELED, which the engine's OpenMP threads need");
    }
}

mpi_session::~mpi_session() {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (owner_ && !finalised) MPI_Finalize();
}

void mpi_session::abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return; this satisfies [[noreturn]]
}

distributed_context mpi_world_context() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) throw error("MPI is not initialised: create a volley::snn::mpi_session first");
    mpi_rank r;
    check(MPI_Comm_rank(MPI_COMM_WORLD, &r.rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &r.ranks), "MPI_Comm_size");
    return distributed_context(r);
}

#else

namespace {
[[noreturn]] void no_mpi() { throw error("this build of Volley has no MPI support (configure with VOLLEY_WITH_MPI=ON)"); }
}  // namespace

mpi_session::mpi_session(int&, char**&) { no_mpi(); }
mpi_session::~mpi_session() = default;
void mpi_session::abort(int code) { std::exit(code); }
distributed_context mpi_world_context() { no_mpi(); }

#endif

}  // namespace volley::snn
