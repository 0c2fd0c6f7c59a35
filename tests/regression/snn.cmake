# Regression tests of the spiking-network engine: rasters that must not depend on threads or runs.
volley_test(test_raster_determinism regression/test_raster_determinism.cpp LIBS volley::snn)
