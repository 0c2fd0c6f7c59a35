# DANNA grid micro-benchmarks (issue 6). See micro/README-danna.md for figures.
if(TARGET volley::danna)
  add_executable(bench_danna micro/bench_danna.cpp)
  target_link_libraries(bench_danna PRIVATE volley::danna benchmark::benchmark_main)
endif()
