# Every required dependency is a Debian package (scripts/setup installs them).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)
find_package(Threads REQUIRED)

set(VOLLEY_HAVE_MPI 0)
if(NOT VOLLEY_WITH_MPI STREQUAL "OFF")
  if(VOLLEY_WITH_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(VOLLEY_HAVE_MPI 1)
  endif()
endif()

set(VOLLEY_HAVE_CUDA 0)
if(NOT VOLLEY_WITH_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(VOLLEY_HAVE_CUDA 1)
    # The CUDA backend (snn/src/backends/device): sm_90 machine code plus compute_90 PTX,
    # which later GPUs compile when they load it.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 knows no C++20 dialect flag for nvcc, which has one.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
  elseif(VOLLEY_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "VOLLEY_WITH_CUDA=ON but no CUDA compiler was found")
  endif()
endif()

# Thrust, CUB and libcu++ (CCCL) for the portable backend, the CUDA backend's source built by
# the host compiler on Thrust's OpenMP system: from the CUDA toolkit where installed (its
# include/cccl), else Debian's libthrust-dev and libcub-dev (scripts/setup installs them).
# Without them the portable backend is not built and its tests are not registered.
set(VOLLEY_HAVE_PORTABLE 0)
find_path(VOLLEY_THRUST_INCLUDE_DIR thrust/version.h
  PATHS ${CUDAToolkit_INCLUDE_DIRS}/cccl /usr/local/cuda/include/cccl /usr/local/cuda/include NO_DEFAULT_PATH)
if(NOT VOLLEY_THRUST_INCLUDE_DIR)
  find_path(VOLLEY_THRUST_INCLUDE_DIR thrust/version.h)
endif()
if(VOLLEY_THRUST_INCLUDE_DIR AND EXISTS ${VOLLEY_THRUST_INCLUDE_DIR}/thrust/system/omp/vector.h)
  set(VOLLEY_HAVE_PORTABLE 1)
endif()

# The Python module (python/): pybind11 (Debian's pybind11-dev) against the interpreter that
# find_package(Python3) picks, the one the python tests run (Python3_EXECUTABLE chooses another).
set(VOLLEY_HAVE_PYTHON 0)
if(NOT VOLLEY_WITH_PYTHON STREQUAL "OFF")
  find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(VOLLEY_HAVE_PYTHON 1)
    # The static libraries are linked into the extension module, a shared object.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  elseif(VOLLEY_WITH_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "VOLLEY_WITH_PYTHON=ON but no Python 3 with its headers and pybind11 was found "
                        "(Debian: python3-dev pybind11-dev)")
  endif()
endif()

set(VOLLEY_HAVE_ASSERTIONS 0)
if(VOLLEY_WITH_ASSERTIONS)
  set(VOLLEY_HAVE_ASSERTIONS 1)
endif()

if(BUILD_TESTING)
  find_package(GTest REQUIRED)
endif()
if(VOLLEY_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

message(STATUS "Volley: OpenMP ${OpenMP_CXX_VERSION}, HDF5 ${HDF5_VERSION}, MPI=${VOLLEY_HAVE_MPI}, CUDA toolkit=${VOLLEY_HAVE_CUDA}, portable backend=${VOLLEY_HAVE_PORTABLE} (${VOLLEY_THRUST_INCLUDE_DIR}), Python=${VOLLEY_HAVE_PYTHON} ${Python3_EXECUTABLE}")
