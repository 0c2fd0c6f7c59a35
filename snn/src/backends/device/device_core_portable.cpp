// The portable device core: device_core_impl.hpp on Thrust's OpenMP system, built by the host
// compiler on every machine (docs/cuda.md).

#include <thrust/system/omp/execution_policy.h>
#include <thrust/system/omp/vector.h>

namespace volley::snn::detail::portable_core {
template <class T>
using device_vector_t = thrust::omp::vector<T>;
}  // namespace volley::snn::detail::portable_core

#define VOLLEY_DEVICE_NS portable_core
#define VOLLEY_DEVICE_POLICY thrust::omp::par
#include "backends/device/device_core_impl.hpp"

namespace volley::snn::detail {

std::unique_ptr<device_core> make_portable_core(const device_network& net) {
    return std::make_unique<portable_core::core>(net);
}

}  // namespace volley::snn::detail
