# Tests of the convolution projection and of the CNN-to-SNN conversion on the engine.
volley_test(test_convolution unit/test_convolution.cpp LIBS volley::snn)
volley_test(test_snn_conversion unit/test_snn_conversion.cpp LIBS volley::convert volley::snn hdf5::hdf5)
volley_test(test_convert_cli unit/test_convert_cli.cpp LIBS volley::convert volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_convert_cli volley)
volley_test(test_zero_delay unit/test_zero_delay.cpp LIBS volley::snn)
volley_test(test_if_run_ahead unit/test_if_run_ahead.cpp LIBS volley::snn)
