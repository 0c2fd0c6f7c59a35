# Integer mode, hardware export of the classifier head and the SNN HDF5 file of the conversion.
volley_test(test_snn_quantization unit/test_snn_quantization.cpp LIBS volley::convert volley::snn)
volley_test(test_head_export unit/test_head_export.cpp LIBS volley::convert volley::snn volley::hw)
volley_test(test_snn_h5 unit/test_snn_h5.cpp LIBS volley::convert volley::snn hdf5::hdf5)
volley_test(test_convert_quant_cli unit/test_convert_quant_cli.cpp LIBS volley::convert volley::snn volley::hw nlohmann_json::nlohmann_json)
add_dependencies(test_convert_quant_cli volley)
