# Inputs the fuzzers of tests/fuzz found (tests/data/fuzz-regressions), refused with typed errors.
volley_test(test_fuzz_regressions unit/test_fuzz_regressions.cpp LIBS volley::snn volley_snn_private volley::hw volley::convert)
