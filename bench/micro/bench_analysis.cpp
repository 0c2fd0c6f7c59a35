// Micro-benchmarks of the spike-train analysis library (snn/analysis): per-train statistics,
// correlograms and distance matrices on Poisson trains. items_per_second counts spikes (or
// pairs for the matrices). See micro/README-analysis.md.
//
// `bench_analysis_micro --from FILE WORKLOAD THREADS [MATRIX_OUT [ISA]]` instead times one
// workload on trains read from FILE (written by bench/peers/analysis_peers.py, so that Volley and
// the peers see identical trains): it prints `seconds <wall> cpu_seconds <all threads>` of the
// computation alone and can write the result (MATRIX_OUT "-": not written). ISA (best, avx2,
// baseline; default best) caps the kernels' instruction set, to time the portable ones.

#include <benchmark/benchmark.h>

#include <volley/snn/analysis/distances.hpp>
#include <volley/snn/analysis/population.hpp>
#include <volley/snn/analysis/statistics.hpp>

#include <omp.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <string_view>

namespace va = volley::snn::analysis;

namespace {

/// `trains` Poisson trains of about `spikes` spikes each in [0, 10 s) (seeded).
std::vector<std::vector<double>> poisson_trains(std::size_t trains, std::size_t spikes) {
    std::mt19937_64 rng(2025);
    const double duration = 10000, rate = static_cast<double>(spikes) / duration;
    std::exponential_distribution<double> isi(rate);
    std::vector<std::vector<double>> out(trains);
    for (auto& t : out)
        for (double now = isi(rng); now < duration; now += isi(rng)) t.push_back(now);
    return out;
}

const va::time_window window{0, 10000};

/// Mean rate, CV, CV2 and LV of every train: separately (arg 0) or by isi_statistics (arg 1).
/// Args: trains, spikes per train, fused.
void rates_and_cv(benchmark::State& state) {
    const auto trains = poisson_trains(static_cast<std::size_t>(state.range(0)),
                                       static_cast<std::size_t>(state.range(1)));
    const bool fused = state.range(2) != 0;
    std::size_t spikes = 0;
    for (const auto& t : trains) spikes += t.size();
    for (auto _ : state) {
        double sum = 0;
        for (std::size_t i = 0; i < trains.size(); ++i) {
            const auto t = va::view(trains[i]);
            sum += va::mean_rate_hz(t, window, i);
            if (fused) {
                const auto s = va::isi_statistics(t, i);
                sum += s.cv + s.cv2 + s.lv;
            } else {
                sum += va::cv(t, i) + va::cv2(t, i) + va::lv(t, i);
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * spikes));
}

/// Auto-correlogram of every train, 1 ms bins, lags +-50 ms. Args: trains, spikes per train.
void correlograms(benchmark::State& state) {
    const auto trains = poisson_trains(static_cast<std::size_t>(state.range(0)),
                                       static_cast<std::size_t>(state.range(1)));
    std::size_t spikes = 0;
    for (const auto& t : trains) spikes += t.size();
    for (auto _ : state)
        for (std::size_t i = 0; i < trains.size(); ++i)
            benchmark::DoNotOptimize(va::auto_correlogram(va::view(trains[i]), window, 1.0, 50, i));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * spikes));
}

/// A full distance matrix. Args: measure (0 van Rossum, 1 SPIKE, 2 ISI, 3 SPIKE-sync), trains,
/// spikes per train, threads.
void distance_matrix(benchmark::State& state) {
    const auto measure = static_cast<va::distance_measure>(
        std::array{0, 3, 2, 4}[static_cast<std::size_t>(state.range(0))]);
    const auto trains = poisson_trains(static_cast<std::size_t>(state.range(1)),
                                       static_cast<std::size_t>(state.range(2)));
    const auto spans = va::views(trains);
    va::distance_options o;
    o.kreuz.window = window;
    const int saved = omp_get_max_threads();
    omp_set_num_threads(static_cast<int>(state.range(3)));
    for (auto _ : state) benchmark::DoNotOptimize(va::distance_matrix(spans, measure, o));
    omp_set_num_threads(saved);
    const auto n = static_cast<std::int64_t>(trains.size());
    state.SetItemsProcessed(state.iterations() * n * (n - 1) / 2);
}

}  // namespace

BENCHMARK(rates_and_cv)
    ->Args({1000, 10000, 0})
    ->Args({1000, 10000, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(correlograms)->Args({1000, 10000})->Unit(benchmark::kMillisecond);
BENCHMARK(distance_matrix)
    ->ArgsProduct({{0, 1, 2, 3}, {200}, {1000}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

namespace {

/// Trains from `path`: little-endian uint64 count of trains, then per train a uint64 count
/// and that many float64 spike times [ms].
std::vector<std::vector<double>> read_trains(const char* path) {
    std::ifstream in(path, std::ios::binary);
    std::uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), sizeof n);
    std::vector<std::vector<double>> out(in ? n : 0);
    for (auto& t : out) {
        std::uint64_t k = 0;
        in.read(reinterpret_cast<char*>(&k), sizeof k);
        t.resize(in ? k : 0);
        in.read(reinterpret_cast<char*>(t.data()),
                static_cast<std::streamsize>(k * sizeof(double)));
    }
    if (!in || out.empty()) {
        std::cerr << "bench_analysis_micro: cannot read trains from " << path << "\n";
        std::exit(2);
    }
    return out;
}

/// The --from mode; workloads: stats (mean rate + isi_statistics per train), van_rossum,
/// spike, isi, spike_sync (matrices in [0, 10 s), tau 10 ms).
int time_from_file(int argc, char** argv) {
    if (argc < 5) {
        std::cerr
            << "usage: bench_analysis_micro --from FILE WORKLOAD THREADS [MATRIX_OUT [ISA]]\n";
        return 2;
    }
    const std::string_view isa = argc > 6 ? argv[6] : "best";
    if (isa != "best" && isa != "avx2" && isa != "baseline") {
        std::cerr << "bench_analysis_micro: ISA is best, avx2 or baseline, not " << isa << "\n";
        return 2;
    }
    const auto trains = read_trains(argv[2]);
    const std::string_view workload = argv[3];
    omp_set_num_threads(std::stoi(argv[4]));
    const auto spans = va::views(trains);
    std::vector<double> result;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    if (workload == "stats") {
        for (std::size_t i = 0; i < trains.size(); ++i) {
            const auto s = va::isi_statistics(spans[i], i);
            result.push_back(va::mean_rate_hz(spans[i], window, i) + s.cv + s.cv2 + s.lv);
        }
    } else {
        const std::array<std::string_view, 5> names{"van_rossum", "victor_purpura", "isi", "spike",
                                                    "spike_sync"};
        std::size_t m = 0;
        while (m < names.size() && names[m] != workload) ++m;
        if (m == names.size()) {
            std::cerr << "bench_analysis_micro: unknown workload " << workload << "\n";
            return 2;
        }
        va::distance_options o;
        o.kreuz.window = window;
        o.max_isa = isa == "baseline" ? volley::snn::instruction_set::baseline
                    : isa == "avx2"   ? volley::snn::instruction_set::avx2
                                      : volley::snn::instruction_set::best;
        result = va::distance_matrix(spans, static_cast<va::distance_measure>(m), o);
    }
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("seconds %.6f cpu_seconds %.6f\n", dt.count(), cpu);
    if (argc > 5 && std::string_view(argv[5]) != "-") {
        std::ofstream out(argv[5], std::ios::binary);
        out.write(reinterpret_cast<const char*>(result.data()),
                  static_cast<std::streamsize>(result.size() * sizeof(double)));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "--from") return time_from_file(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
