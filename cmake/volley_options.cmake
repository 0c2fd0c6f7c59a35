# Build options (docs/style.md). Optional parts are detected, never required.
set(VOLLEY_WITH_CUDA AUTO CACHE STRING "Build the CUDA backend (AUTO, ON, OFF)")
set_property(CACHE VOLLEY_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)
set(VOLLEY_WITH_MPI AUTO CACHE STRING "Build the MPI distributed context (AUTO, ON, OFF)")
set_property(CACHE VOLLEY_WITH_MPI PROPERTY STRINGS AUTO ON OFF)
option(VOLLEY_WITH_ASSERTIONS "Enable VOLLEY_ASSERT checks" OFF)
option(VOLLEY_BUILD_BENCH "Build the benchmarks" ON)
option(VOLLEY_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
