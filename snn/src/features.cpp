// Build and runtime features. This file and the context files are the only places that test
// VOLLEY_HAVE_* (docs/style.md, "Backends").

#include <volley/config.hpp>
#include <volley/snn/features.hpp>

#include <omp.h>

namespace volley::snn {

build_features features() {
    return {.version = VOLLEY_VERSION,
            .build_type = VOLLEY_BUILD_TYPE,
            .openmp_max_threads = omp_get_max_threads(),
            .cuda = VOLLEY_HAVE_CUDA != 0,
            .mpi = VOLLEY_HAVE_MPI != 0,
            .hdf5_version = VOLLEY_HDF5_VERSION,
            .assertions = VOLLEY_HAVE_ASSERTIONS != 0};
}

}  // namespace volley::snn
