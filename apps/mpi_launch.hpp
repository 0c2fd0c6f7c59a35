#pragma once
// Runs under mpirun or srun (docs/mpi.md): when the process was started by an MPI launcher,
// MPI is initialised for the life of the command, every simulation is one rank of
// MPI_COMM_WORLD, only rank 0 prints to stdout and writes files, and a rank that fails ends
// every rank (MPI_Abort) instead of leaving them waiting.

#include <volley/snn/distributed_context.hpp>

namespace volley::cli {

/// Starts MPI when an MPI launcher started this process (OMPI_COMM_WORLD_SIZE, PMI_SIZE or
/// PMIX_RANK is set) and Volley is built with MPI; silences stdout on every rank but 0.
void start_mpi_if_launched(int& argc, char**& argv);

/// MPI_COMM_WORLD when MPI was started, else one local rank.
snn::distributed_context launch_context();

/// The number of ranks of launch_context().
int launch_ranks();

/// After a failure: ends every rank with `code` when there are several, else returns `code`.
int fail_all_ranks(int code);

}  // namespace volley::cli
