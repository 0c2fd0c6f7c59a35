# Unit tests of the NIR graph layer (snn/src/nir): reading every fixture, shape inference, the
# round trip through write_nir, and the errors each kind of bad file gets.
volley_test(test_nir_fixtures unit/test_nir_fixtures.cpp LIBS volley::snn volley_snn_private)
volley_test(test_nir_round_trip unit/test_nir_round_trip.cpp LIBS volley::snn volley_snn_private)
volley_test(test_nir_errors unit/test_nir_errors.cpp LIBS volley::snn volley_snn_private)
volley_test(test_nir_shapes unit/test_nir_shapes.cpp LIBS volley::snn volley_snn_private)
