# The CNN readers, BatchNorm folding, the analog forward pass and the normalisation (issue 8).
volley_test(test_cnn_readers unit/test_cnn_readers.cpp LIBS volley::convert hdf5::hdf5)
volley_test(test_cnn_graph unit/test_cnn_graph.cpp LIBS volley::convert)
volley_test(test_layer_normalization unit/test_layer_normalization.cpp LIBS volley::convert hdf5::hdf5)
