# The CNN readers, BatchNorm folding, the analog forward pass and the normalisation (issue 8).
volley_test(test_cnn_readers unit/test_cnn_readers.cpp LIBS volley::convert hdf5::hdf5)
volley_test(test_cnn_graph unit/test_cnn_graph.cpp LIBS volley::convert)
volley_test(test_layer_normalization unit/test_layer_normalization.cpp LIBS volley::convert hdf5::hdf5)
# Old Keras files (Keras 1.x, the Theano backend) and `volley convert --architecture`.
volley_test(test_keras_legacy unit/test_keras_legacy.cpp LIBS volley::convert hdf5::hdf5 nlohmann_json::nlohmann_json)
volley_test(test_keras_architecture_cli unit/test_keras_architecture_cli.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(test_keras_architecture_cli volley)
