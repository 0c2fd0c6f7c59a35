// The backend factory: the only place that picks a backend at run time.

#include <volley/config.hpp>
#include <volley/error.hpp>

#include "backends/cpu/cpu_engine.hpp"
#include "backends/engine.hpp"

namespace volley::snn::detail {

std::unique_ptr<engine> make_engine(const network& net, const context& ctx, const simulation_options& options) {
    if (ctx.gpu_id >= 0)
        throw error("context: gpu_id = " + std::to_string(ctx.gpu_id) +
                    ": this build of Volley has no GPU backend yet; use gpu_id = -1");
    if (ctx.mpi)
        throw error(VOLLEY_HAVE_MPI ? "context: mpi = true: the MPI backend is not implemented yet"
                                    : "context: mpi = true: this build of Volley has no MPI support");
    return std::make_unique<cpu_engine>(net, resolved_threads(ctx), options, ctx.distributed);
}

}  // namespace volley::snn::detail
