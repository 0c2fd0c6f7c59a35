// The cost of the two ways to exchange an epoch's spikes between ranks, side by side on this
// machine's MPI (bench/mpi/README.md):
// - allgather: what the engine does (mpi_world_context): MPI_Allgather of the byte counts, then
//   MPI_Allgatherv of every rank's events to every rank;
// - targeted (NEST 5g's directed exchange): each event goes only to the ranks that hold targets
//   of its neuron, a fraction f of the other ranks (each event's ranks drawn once, before
//   timing): pack one buffer per rank, MPI_Alltoall of the counts, MPI_Alltoallv of the events.
// For each message size (events per rank and epoch, 16 bytes each: sizeof(spike_event), as the
// engine sends them) and f, the median time of many calls and the ratio targeted / allgather.
// A straight-line fit of the allgather times (latency + bytes / bandwidth) gives the constants
// of the exchange model of `volley bench hpc --project-ranks`.
//
//     mpirun -np 2 build/release/bench/bench_mpi_exchange [repeats]

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace {

struct event {  // as volley::snn::spike_event
    std::int64_t step;
    std::uint32_t neuron;
};

double median(std::vector<double> t) {
    std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
    double m = t[t.size() / 2];
    MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  // the slowest rank's
    return m;
}

double time_allgather(const std::vector<event>& local, int size, int repeats) {
    std::vector<double> t;
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
    std::vector<event> all;
    for (int k = 0; k < repeats; ++k) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        const int mine = static_cast<int>(local.size() * sizeof(event));
        MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int total = 0;
        for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = total, total += counts[static_cast<std::size_t>(r)];
        all.resize(static_cast<std::size_t>(total) / sizeof(event));
        MPI_Allgatherv(local.data(), mine, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
        t.push_back(MPI_Wtime() - t0);
    }
    return median(t);
}

/// targets[i * size + r]: event i goes to rank r. Returns the median time of the whole
/// exchange and of its packing.
std::pair<double, double> time_targeted(const std::vector<event>& local, const std::vector<std::uint8_t>& targets,
                                        int size, int repeats) {
    std::vector<double> t, pack;
    const auto S = static_cast<std::size_t>(size);
    std::vector<int> scounts(S), sdispls(S), rcounts(S), rdispls(S);
    std::vector<event> send, recv;
    for (int k = 0; k < repeats; ++k) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        std::fill(scounts.begin(), scounts.end(), 0);
        for (std::size_t i = 0; i < local.size(); ++i)
            for (std::size_t r = 0; r < S; ++r) scounts[r] += targets[i * S + r];
        int total = 0;
        for (std::size_t r = 0; r < S; ++r) sdispls[r] = total, total += scounts[r];
        send.resize(static_cast<std::size_t>(total));
        std::vector<int> fill(sdispls);
        for (std::size_t i = 0; i < local.size(); ++i)
            for (std::size_t r = 0; r < S; ++r)
                if (targets[i * S + r]) send[static_cast<std::size_t>(fill[r]++)] = local[i];
        for (std::size_t r = 0; r < S; ++r) scounts[r] *= sizeof(event), sdispls[r] *= sizeof(event);
        pack.push_back(MPI_Wtime() - t0);
        MPI_Alltoall(scounts.data(), 1, MPI_INT, rcounts.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int rtotal = 0;
        for (std::size_t r = 0; r < S; ++r) rdispls[r] = rtotal, rtotal += rcounts[r];
        recv.resize(static_cast<std::size_t>(rtotal) / sizeof(event));
        MPI_Alltoallv(send.data(), scounts.data(), sdispls.data(), MPI_BYTE, recv.data(), rcounts.data(), rdispls.data(),
                      MPI_BYTE, MPI_COMM_WORLD);
        t.push_back(MPI_Wtime() - t0);
    }
    return {median(t), median(pack)};
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 200;
    if (rank == 0)
        std::printf("ranks %d, %zu bytes per event, median of %d calls (the slowest rank's)\n%12s %12s %14s %6s %14s %12s %8s\n",
                    size, sizeof(event), repeats, "events/rank", "bytes/rank", "allgather [us]", "f", "targeted [us]",
                    "packing [us]", "ratio");
    std::uint64_t seed = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(rank + 1);
    auto uniform = [&] {  // splitmix64
        std::uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
    };
    for (int events = 1; events <= 1 << 18; events *= 8) {
        std::vector<event> local(static_cast<std::size_t>(events));
        for (int i = 0; i < events; ++i) local[static_cast<std::size_t>(i)] = {i % 15, static_cast<std::uint32_t>(i)};
        const double all = time_allgather(local, size, repeats);
        for (const double f : {1.0, 0.5, 0.1}) {
            const auto S = static_cast<std::size_t>(size);
            std::vector<std::uint8_t> targets(local.size() * S);
            for (std::size_t i = 0; i < local.size(); ++i)
                for (std::size_t r = 0; r < S; ++r) targets[i * S + r] = static_cast<int>(r) == rank || uniform() < f;
            const auto [tgt, pack] = time_targeted(local, targets, size, repeats);
            if (rank == 0)
                std::printf("%12d %12zu %14.2f %6.2f %14.2f %12.2f %8.2f\n", events, local.size() * sizeof(event),
                            all * 1e6, f, tgt * 1e6, pack * 1e6, tgt / all);
        }
    }
    MPI_Finalize();
    return 0;
}
