# The engine side of NIR: the discrete_neuron model, analog sources, the npz reader, mapping
# NIR graphs onto the engine and their validation against the NIR paper's data.
volley_test(test_discrete_neuron unit/test_discrete_neuron.cpp LIBS volley::snn)
volley_test(test_npz_file unit/test_npz_file.cpp LIBS volley::snn ZLIB::ZLIB)
volley_test(test_nir_cli cli/test_nir_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json ZLIB::ZLIB)
add_dependencies(test_nir_cli volley)
volley_test(test_nir_reset_conventions unit/test_nir_reset_conventions.cpp LIBS volley::snn)
volley_test(test_nir_step_check unit/test_nir_step_check.cpp LIBS volley::snn)
