# The ODE neuron models (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh) and the COBA and
# COBAHH benchmark networks: behaviour against published results and independent integrations.
volley_test(test_izhikevich_presets validation/test_izhikevich_presets.cpp LIBS volley::snn)
volley_test(test_adex_presets validation/test_adex_presets.cpp LIBS volley::snn)
volley_test(test_lif_cond_response validation/test_lif_cond_response.cpp LIBS volley::snn)
volley_test(test_ode_event_location unit/test_ode_event_location.cpp LIBS volley_snn_private)
volley_test(test_ode_models unit/test_ode_models.cpp LIBS volley::snn)
volley_test(test_coba_rate validation/test_coba_rate.cpp LIBS volley::snn)

# `volley bench coba|cobahh`: the shared bench path runs the networks on 2 threads and on 1 and
# reports whether the rasters agree.
foreach(net coba cobahh)
  add_test(NAME cli_bench_${net}_small
           COMMAND volley bench ${net} --neurons 400 --duration 20 --threads 2 --json --quiet)
  set_tests_properties(cli_bench_${net}_small PROPERTIES
    PASS_REGULAR_EXPRESSION "\"network\": \"${net}\"(.|\n)*\"raster_matches_1_thread\": true"
    ENVIRONMENT OMP_WAIT_POLICY=PASSIVE TIMEOUT 300)
endforeach()
volley_test(test_ode_schemes unit/test_ode_schemes.cpp LIBS volley_snn_private)
volley_test(test_ode_input unit/test_ode_input.cpp LIBS volley_snn_private)
# The branch-free exp the fixed-step kernels use: accuracy against the C library and the same
# bits at every vector width (compiled like the kernels, without FMA contraction).
volley_test(test_vector_exp unit/test_vector_exp.cpp LIBS volley_snn_private)
set_source_files_properties(unit/test_vector_exp.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
