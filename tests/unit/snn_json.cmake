volley_test(test_network_json unit/test_network_json.cpp LIBS volley::snn)
volley_test(test_json_integer unit/test_json_integer.cpp LIBS volley::snn)
