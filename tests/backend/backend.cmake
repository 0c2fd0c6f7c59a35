# Backend tests (docs/cuda.md): scenarios written once, run on every backend built (cpu,
# portable, cuda) and compared with the CPU engine's rasters; cuda instances skip without a GPU.
volley_test(test_backend backend/test_backend_rasters.cpp backend/test_philox_stream.cpp
            backend/test_propagation_strategies.cpp LIBS volley_snn_private)
