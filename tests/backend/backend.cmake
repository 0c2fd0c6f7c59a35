# Backend tests (docs/cuda.md): scenarios written once, run on every backend built (cpu,
# portable, cuda) and compared with the CPU engine's rasters; cuda instances skip without a GPU.
set(backend_test_sources backend/test_backend_rasters.cpp backend/test_philox_stream.cpp)
if(VOLLEY_HAVE_PORTABLE)  # drives the portable core directly
  list(APPEND backend_test_sources backend/test_propagation_strategies.cpp)
endif()
volley_test(test_backend ${backend_test_sources} LIBS volley_snn_private)
