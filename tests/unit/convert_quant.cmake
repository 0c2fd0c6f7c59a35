# Integer mode, hardware export of the classifier head and the SNN HDF5 file of the conversion.
volley_test(test_snn_quantization unit/test_snn_quantization.cpp LIBS volley::convert volley::snn)
