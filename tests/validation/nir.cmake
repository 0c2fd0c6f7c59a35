# NIR graphs on the engine, validated on the NIR paper's data (tests/data/nir).
volley_test(test_nir_engine validation/test_nir_engine.cpp LIBS volley::snn)
volley_test(test_nir_mapping validation/test_nir_mapping.cpp LIBS volley::snn)
volley_test(test_nir_convert_export validation/test_nir_convert_export.cpp LIBS volley::snn volley::convert)
volley_test(test_nir_frameworks validation/test_nir_frameworks.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
