# Checkpoint and restore of a simulation (docs/engine.md, "Checkpoints").
volley_test(test_checkpoint unit/test_checkpoint.cpp LIBS volley::snn hdf5::hdf5)
if(TARGET volley::convert)
  volley_test(test_checkpoint_converted unit/test_checkpoint_converted.cpp LIBS volley::convert volley::snn)
endif()
