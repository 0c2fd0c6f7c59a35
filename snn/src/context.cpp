// Execution context.

#include <volley/error.hpp>
#include <volley/snn/context.hpp>

#include <omp.h>

namespace volley::snn {

int resolved_threads(const context& ctx) {
    if (ctx.threads < 0)
        throw invalid_parameter("context", "threads", std::to_string(ctx.threads), "must be >= 0 (0 = OpenMP default)");
    return ctx.threads == 0 ? omp_get_max_threads() : ctx.threads;
}

backend_kind resolved_backend(const context& ctx) {
    if (ctx.backend != backend_kind::automatic) return ctx.backend;
    return ctx.gpu_id >= 0 ? backend_kind::cuda : backend_kind::cpu;
}

}  // namespace volley::snn
