# Micro-benchmarks of the spiking-network engine (Google Benchmark); see micro/README.md.
add_executable(bench_snn_micro micro/bench_snn.cpp)
target_link_libraries(bench_snn_micro PRIVATE volley::snn volley_snn_private benchmark::benchmark)
