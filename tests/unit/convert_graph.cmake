# Conversion of non-sequential CNNs (Add, Concatenate), the gated max-pool and TTFS input coding.
volley_test(test_snn_graph_conversion unit/test_snn_graph_conversion.cpp LIBS volley::convert volley::snn)
volley_test(test_max_pool_gate unit/test_max_pool_gate.cpp LIBS volley::convert volley::snn)
volley_test(test_ttfs_input unit/test_ttfs_input.cpp LIBS volley::convert volley_convert_private volley::snn)
volley_test(test_batched_evaluation unit/test_batched_evaluation.cpp LIBS volley::convert volley_convert_private volley::snn)
