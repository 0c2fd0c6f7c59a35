# Tests of the temporal task library (docs/temporal.md): questions, sequence generation,
# encoding, decoding, the ideal bound, the hand-built networks on RISP and DANNA, the EONS
# fitness, and the CNN feature path on the reference CNN fixture.
volley_test(test_temporal
  unit/test_temporal_sequences.cpp
  unit/test_temporal_coding.cpp
  unit/test_temporal_networks.cpp
  unit/test_temporal_evolved.cpp
  unit/test_temporal_cnn_features.cpp
  unit/test_cartpole.cpp
  LIBS volley::temporal volley::convert volley::danna volley::hw hdf5::hdf5)
