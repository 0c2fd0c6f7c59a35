# Unit tests of the GRU layer and the GRU sequence classifier (convert/).
volley_test(test_gru unit/test_gru.cpp unit/test_sequence_classifier.cpp LIBS volley::convert)
