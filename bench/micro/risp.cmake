# RISP micro-benchmarks (issue 5). See micro/README-risp.md for figures.
if(TARGET volley::hw)
  add_executable(bench_risp micro/bench_risp.cpp)
  target_link_libraries(bench_risp PRIVATE volley::hw benchmark::benchmark_main)
endif()
