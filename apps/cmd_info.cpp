// `volley info`: version, enabled features and build type.

#include "cli_common.hpp"

#include <volley/snn/features.hpp>

#include <cstdio>
#include <memory>

namespace volley::cli {

void register_info(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand("info", "Print the version, enabled features and build type");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print one JSON object on stdout");
    cmd->callback([json] {
        const auto f = snn::features();
        if (*json) {
            print_json({{"version", f.version},
                        {"build_type", f.build_type},
                        {"openmp_threads", f.openmp_max_threads},
                        {"cuda", f.cuda},
                        {"mpi", f.mpi},
                        {"hdf5", f.hdf5_version},
                        {"assertions", f.assertions}});
            return;
        }
        std::printf("volley %s (%s build)\n", f.version.c_str(), f.build_type.c_str());
        std::printf("  OpenMP threads : %d\n", f.openmp_max_threads);
        std::printf("  CUDA           : %s\n",
                    f.cuda ? "toolkit found (no GPU backend in this version)" : "not built");
        std::printf("  MPI            : %s\n", f.mpi ? "built" : "not built");
        std::printf("  HDF5           : %s\n", f.hdf5_version.c_str());
        std::printf("  assertions     : %s\n", f.assertions ? "on" : "off");
    });
}

}  // namespace volley::cli
