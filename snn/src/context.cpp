// Execution context.

#include <volley/error.hpp>
#include <volley/snn/context.hpp>
#include <volley/thread_limit.hpp>

#include <omp.h>

namespace volley::snn {

int resolved_threads(const context& ctx) {
    check_thread_count("context", ctx.threads);
    return ctx.threads == 0 ? omp_get_max_threads() : ctx.threads;
}

backend_kind resolved_backend(const context& ctx) {
    if (ctx.backend != backend_kind::automatic) return ctx.backend;
    return ctx.gpu_id >= 0 ? backend_kind::cuda : backend_kind::cpu;
}

}  // namespace volley::snn
