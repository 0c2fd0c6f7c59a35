#pragma once
// Execution resources: threads, a GPU, and the distributed context (docs/architecture.md).

#include <volley/snn/distributed_context.hpp>

namespace volley::snn {

/// The engine that runs a simulation (docs/cuda.md).
enum class backend_kind {
    automatic,  ///< cuda when gpu_id >= 0, else cpu
    cpu,        ///< the CPU engine (OpenMP threads)
    portable,   ///< the device engine on Thrust's OpenMP system: the CUDA backend's source, on any machine
    cuda,       ///< the device engine on CUDA device gpu_id (0 when gpu_id < 0)
};

/// Where and how wide a simulation runs.
struct context {
    int threads = 0;   ///< OpenMP threads; 0 means the OpenMP default (OMP_NUM_THREADS)
    int gpu_id = -1;   ///< CUDA device, or -1 for none (the CPU backend)
    /// The ranks this simulation is one of (volley/snn/distributed_context.hpp): one by
    /// default; mpi_world_context() for MPI ranks (after an mpi_session), and dry_run() hands each
    /// imitated rank its own.
    distributed_context distributed = local_context();
    backend_kind backend = backend_kind::automatic;  ///< which engine runs it
};

/// The backend a context selects: `backend`, or for automatic cuda when gpu_id >= 0, else cpu.
backend_kind resolved_backend(const context& ctx);

/// The thread count a context resolves to on this machine (>= 1).
int resolved_threads(const context& ctx);

}  // namespace volley::snn
