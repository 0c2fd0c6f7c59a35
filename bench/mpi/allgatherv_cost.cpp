// The cost of the engine's spike exchange primitive, MPI_Allgatherv, on this machine's MPI:
// for each message size (spike events per rank and epoch, 12 bytes each as the engine sends
// them), the median time of many calls. A straight-line fit t = latency + bytes_total / bandwidth
// gives the constants of the exchange model in bench/mpi/README.md.
//
//     mpirun -np 2 build/release/bench/bench_mpi_allgatherv [repeats]

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 200;
    if (rank == 0) std::printf("ranks %d\n%12s %14s %14s\n", size, "events/rank", "bytes total", "median [us]");
    for (int events = 0; events <= 1 << 20; events = events == 0 ? 1 : events * 4) {
        const int bytes = 12 * events;
        std::vector<char> send(static_cast<std::size_t>(bytes)), recv(static_cast<std::size_t>(bytes) * size);
        std::vector<int> counts(size, bytes), displs(size);
        for (int r = 0; r < size; ++r) displs[r] = r * bytes;
        std::vector<double> t;
        for (int k = 0; k < repeats; ++k) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            MPI_Allgatherv(send.data(), bytes, MPI_BYTE, recv.data(), counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
            t.push_back(MPI_Wtime() - t0);
        }
        std::nth_element(t.begin(), t.begin() + repeats / 2, t.end());
        double med = t[repeats / 2];
        MPI_Allreduce(MPI_IN_PLACE, &med, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) std::printf("%12d %14lld %14.2f\n", events, static_cast<long long>(bytes) * size, med * 1e6);
        if (bytes * static_cast<long long>(size) > (1 << 26)) break;
    }
    MPI_Finalize();
    return 0;
}
