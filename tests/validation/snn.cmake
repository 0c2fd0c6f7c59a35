# Validation of the spiking-network engine against analytic results and published rates.
volley_test(test_lif_membrane validation/test_lif_membrane.cpp LIBS volley::snn)
volley_test(test_psp_shapes validation/test_psp_shapes.cpp LIBS volley::snn)
volley_test(test_poisson_source validation/test_poisson_source.cpp LIBS volley::snn)
volley_test(test_cuba_rate validation/test_cuba_rate.cpp LIBS volley::snn)
volley_test(test_lif_fast_paths validation/test_lif_fast_paths.cpp LIBS volley::snn)
volley_test(test_step_pairs validation/test_step_pairs.cpp LIBS volley::snn)
