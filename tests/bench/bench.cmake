# Benchmark smoke tests (not timed) and the Brian2 and NEST peer-network matches.
if(TARGET bench_snn_micro)
  add_test(NAME bench_snn_micro_smoke
           COMMAND bench_snn_micro --benchmark_filter=neuron_update/1|propagation/3/0|recording/1
                   --benchmark_min_time=0.001)
  set_tests_properties(bench_snn_micro_smoke PROPERTIES TIMEOUT 120)
endif()
volley_test(test_brian2_network_match bench/test_brian2_network_match.cpp LIBS volley::snn volley_snn_private)
target_compile_definitions(test_brian2_network_match PRIVATE
  VOLLEY_BRIAN2_SCRIPT="${PROJECT_SOURCE_DIR}/bench/peers/brian2_cuba.py")
volley_test(test_nest_network_match bench/test_nest_network_match.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
target_compile_definitions(test_nest_network_match PRIVATE
  VOLLEY_NEST_SCRIPT="${PROJECT_SOURCE_DIR}/bench/peers/nest_cuba.py")
volley_test(test_nest_coba_match bench/test_nest_coba_match.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
target_compile_definitions(test_nest_coba_match PRIVATE
  VOLLEY_NEST_COBA_SCRIPT="${PROJECT_SOURCE_DIR}/bench/peers/nest_coba.py")
