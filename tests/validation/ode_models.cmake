# The ODE neuron models (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh) and the COBA and
# COBAHH benchmark networks: behaviour against published results and independent integrations.
volley_test(test_izhikevich_presets validation/test_izhikevich_presets.cpp LIBS volley::snn)
volley_test(test_adex_presets validation/test_adex_presets.cpp LIBS volley::snn)
volley_test(test_lif_cond_response validation/test_lif_cond_response.cpp LIBS volley::snn)
volley_test(test_ode_event_location unit/test_ode_event_location.cpp LIBS volley_snn_private)
volley_test(test_ode_models unit/test_ode_models.cpp LIBS volley::snn)
volley_test(test_coba_rate validation/test_coba_rate.cpp LIBS volley::snn)
