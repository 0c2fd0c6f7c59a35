// The CUDA device core: device_core_impl.hpp compiled by nvcc (sm_90 and PTX), and the list of
// CUDA devices for `volley info` (docs/cuda.md).

#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/vector.h>

#include <cuda_runtime.h>

#include <volley/error.hpp>

namespace volley::snn::detail::cuda_core {
template <class T>
using device_vector_t = thrust::cuda::vector<T>;
}  // namespace volley::snn::detail::cuda_core

#define VOLLEY_DEVICE_NS cuda_core
#define VOLLEY_DEVICE_POLICY thrust::cuda::par
#include "backends/device/device_core_impl.hpp"

namespace volley::snn::detail {

std::unique_ptr<device_core> make_cuda_core(const device_network& net, int gpu_id) {
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess)
        throw error(std::string("cuda backend: no usable CUDA device: ") + cudaGetErrorString(e));
    if (gpu_id >= count)
        throw invalid_parameter("context", "gpu_id", std::to_string(gpu_id),
                                "this machine has " + std::to_string(count) + " CUDA device(s)");
    if (const cudaError_t e = cudaSetDevice(gpu_id); e != cudaSuccess)
        throw error(std::string("cuda backend: cudaSetDevice: ") + cudaGetErrorString(e));
    return std::make_unique<cuda_core::core>(net);
}

std::vector<std::string> cuda_device_list(std::string& why_none) {
    std::vector<std::string> out;
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        why_none = cudaGetErrorString(e);
        return out;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
        out.push_back(std::to_string(d) + ": " + p.name + ", compute capability " + std::to_string(p.major) + "." +
                      std::to_string(p.minor) + ", " + std::to_string(p.totalGlobalMem >> 20) + " MiB");
    }
    if (out.empty()) why_none = "no CUDA device found";
    return out;
}

}  // namespace volley::snn::detail
