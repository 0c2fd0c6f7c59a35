// MPI launch detection for the command line (see mpi_launch.hpp).

#include "mpi_launch.hpp"

#include <volley/config.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

namespace volley::cli {

namespace {

std::unique_ptr<snn::mpi_session> session;
std::optional<snn::distributed_context> world;

bool launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name)) return true;
    return false;
}

}  // namespace

void start_mpi_if_launched(int& argc, char**& argv) {
    if (!VOLLEY_HAVE_MPI || !launched_by_mpi()) return;
    session = std::make_unique<snn::mpi_session>(argc, argv);
    world = snn::mpi_world_context();
    if (world->id() != 0 && !std::freopen("/dev/null", "w", stdout))  // one report, from rank 0
        std::fprintf(stderr, "volley: rank %d could not silence its standard output\n", world->id());
}

snn::distributed_context launch_context() { return world ? *world : snn::local_context(); }

int launch_ranks() { return world ? world->size() : 1; }

int fail_all_ranks(int code) {
    if (world && world->size() > 1) {
        std::fflush(stderr);
        snn::mpi_session::abort(code);
    }
    return code;
}

}  // namespace volley::cli
