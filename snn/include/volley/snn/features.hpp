#pragma once
// What this build of Volley can do: the answer behind `volley info`.

#include <string>
#include <vector>

namespace volley::snn {

/// The features compiled into this build, and what the machine offers them.
struct build_features {
    std::string version;     ///< Volley's version, e.g. "0.1.0"
    std::string build_type;  ///< CMake build type, e.g. "Release"
    int openmp_max_threads;  ///< omp_get_max_threads() at the time of the call
    bool cuda;               ///< a CUDA toolkit was found at build time (the cuda backend is built)
    bool portable;           ///< the portable backend (Thrust's OpenMP system) is built
    std::vector<std::string> cuda_devices;  ///< one line per CUDA device of this machine
    std::string cuda_note;                  ///< why cuda_devices is empty
    bool mpi;                ///< built with the MPI distributed context
    std::string hdf5_version;
    bool assertions;  ///< VOLLEY_ASSERT checks are on
};

/// Reports the features of this build.
build_features features();

}  // namespace volley::snn
