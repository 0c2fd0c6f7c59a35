# Unit tests of the CNN stack and its trainer (convert/): one file per concept.
volley_test(test_layer_gradients unit/test_layer_gradients.cpp LIBS volley::convert)
