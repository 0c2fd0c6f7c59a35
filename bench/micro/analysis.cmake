# Micro-benchmarks of the spike-train analysis library (Google Benchmark); see micro/README-analysis.md.
add_executable(bench_analysis_micro micro/bench_analysis.cpp)
target_link_libraries(bench_analysis_micro PRIVATE volley::snn benchmark::benchmark)
