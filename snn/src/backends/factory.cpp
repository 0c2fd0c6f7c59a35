// The backend factory: the only place that picks a backend at run time. The device backends
// (backends/device) are one source built twice: "portable" (Thrust's OpenMP system, built
// wherever Thrust's headers are found) and "cuda" (nvcc); each runs what it supports and
// refuses the rest with unsupported_model, never falling back to the CPU silently.

#include <volley/config.hpp>
#include <volley/error.hpp>

#include "backends/cpu/cpu_engine.hpp"
#include "backends/device/device_core.hpp"
#include "backends/device/device_engine.hpp"
#include "backends/engine.hpp"

namespace volley::snn::detail {

namespace {

void refuse_distributed(const context& ctx, const char* backend) {
    if (ctx.distributed.size() > 1)
        throw error(std::string("context: the ") + backend + " backend runs on one rank; this is rank " +
                    std::to_string(ctx.distributed.id()) + " of " + std::to_string(ctx.distributed.size()));
}

}  // namespace

std::unique_ptr<engine> make_engine(const network& net, const context& ctx, const simulation_options& options) {
    switch (resolved_backend(ctx)) {
        case backend_kind::cuda: {
            refuse_distributed(ctx, "cuda");
#if VOLLEY_HAVE_CUDA
            const int gpu = ctx.gpu_id < 0 ? 0 : ctx.gpu_id;
            return std::make_unique<device_engine>(
                net, options, "cuda", [gpu](const device_network& d) { return make_cuda_core(d, gpu); }, 1);
#else
            throw error("context: gpu_id = " + std::to_string(ctx.gpu_id) +
                        ": this build of Volley has no CUDA backend (nvcc was not found when it was configured)");
#endif
        }
        case backend_kind::portable:
            refuse_distributed(ctx, "portable");
#if VOLLEY_HAVE_PORTABLE
            return std::make_unique<device_engine>(net, options, "portable", &make_portable_core, resolved_threads(ctx));
#else
            throw error("context: backend = portable: this build of Volley has no portable backend (Thrust's headers "
                        "were not found when it was configured)");
#endif
        default:
            if (ctx.gpu_id >= 0)
                throw invalid_parameter("context", "gpu_id", std::to_string(ctx.gpu_id),
                                        "the cpu backend runs on no GPU; use gpu_id = -1 or backend = cuda");
            return std::make_unique<cpu_engine>(net, resolved_threads(ctx), options, ctx.distributed);
    }
}

}  // namespace volley::snn::detail
