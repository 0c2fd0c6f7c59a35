// Micro-benchmarks of the spike-train analysis library (snn/analysis): per-train statistics,
// correlograms and distance matrices on Poisson trains. items_per_second counts spikes (or
// pairs for the matrices). See micro/README-analysis.md.

#include <benchmark/benchmark.h>

#include <volley/snn/analysis/distances.hpp>
#include <volley/snn/analysis/population.hpp>
#include <volley/snn/analysis/statistics.hpp>

#include <omp.h>

#include <array>
#include <random>

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

BENCHMARK_MAIN();
