# Unit tests of the spiking-network engine (snn/): one file per concept.
volley_test(test_network_errors unit/test_network_errors.cpp LIBS volley::snn)
volley_test(test_connectors unit/test_connectors.cpp LIBS volley::snn volley_snn_private)
volley_test(test_delays unit/test_delays.cpp LIBS volley::snn)
volley_test(test_stimuli unit/test_stimuli.cpp LIBS volley::snn)
volley_test(test_recorders unit/test_recorders.cpp LIBS volley::snn)
volley_test(test_refractoriness unit/test_refractoriness.cpp LIBS volley::snn)
volley_test(test_fixed_point_weights unit/test_fixed_point_weights.cpp LIBS volley::snn)
volley_test(test_distributed unit/test_distributed.cpp LIBS volley::snn volley_snn_private)
