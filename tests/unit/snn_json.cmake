volley_test(test_network_json unit/test_network_json.cpp LIBS volley::snn)
