// Build and runtime features. This file and the context files are the only places that test
// VOLLEY_HAVE_* (docs/style.md, "Backends").

#include <volley/config.hpp>
#include <volley/snn/features.hpp>

#include <omp.h>

#include "backends/device/device_core.hpp"

namespace volley::snn {

build_features features() {
    std::vector<std::string> devices;
    std::string note = "this build has no CUDA backend (nvcc was not found when it was configured)";
#if VOLLEY_HAVE_CUDA
    note.clear();
    devices = detail::cuda_device_list(note);
#endif
    return {.version = VOLLEY_VERSION,
            .build_type = VOLLEY_BUILD_TYPE,
            .openmp_max_threads = omp_get_max_threads(),
            .cuda = VOLLEY_HAVE_CUDA != 0,
            .portable = VOLLEY_HAVE_PORTABLE != 0,
            .cuda_devices = std::move(devices),
            .cuda_note = std::move(note),
            .mpi = VOLLEY_HAVE_MPI != 0,
            .hdf5_version = VOLLEY_HDF5_VERSION,
            .assertions = VOLLEY_HAVE_ASSERTIONS != 0};
}

}  // namespace volley::snn
