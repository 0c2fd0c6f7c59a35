# Unit tests of the CNN stack and its trainer (convert/): one file per concept.
find_package(ZLIB REQUIRED)
volley_test(test_layer_gradients unit/test_layer_gradients.cpp LIBS volley::convert)
volley_test(test_optimizers unit/test_optimizers.cpp LIBS volley::convert)
volley_test(test_idx_reader unit/test_idx_reader.cpp LIBS volley::convert ZLIB::ZLIB)
volley_test(test_training unit/test_training.cpp LIBS volley::convert volley::snn)
volley_test(test_model_writers unit/test_model_writers.cpp LIBS volley::convert hdf5::hdf5 nlohmann_json::nlohmann_json)
volley_test(test_gemm unit/test_gemm.cpp LIBS volley::convert volley_convert_private)
volley_test(test_train_cli unit/test_train_cli.cpp LIBS volley::convert hdf5::hdf5 nlohmann_json::nlohmann_json)
