// `volley info`: version, enabled features and build type; `volley info FILE`: what a network
// file holds (cmd_network_info.cpp).

#include "cli_common.hpp"
#include "cmd_network_info.hpp"

#include <volley/snn/features.hpp>

#include <cstdio>
#include <memory>

namespace volley::cli {

void register_info(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand("info", "Print the version, enabled features and build type, or what a network file holds");
    auto json = std::make_shared<bool>(false);
    auto file = std::make_shared<std::string>();
    cmd->add_option("file", *file, "A network file: network JSON, NIR, converted SNN .h5, TENNLab JSON, CNN model");
    cmd->add_flag("--json", *json, "Print one JSON object on stdout");
    cmd->callback([json, file] {
        if (!file->empty()) {
            print_network_file_info(*file, *json);
            return;
        }
        const auto f = snn::features();
        if (*json) {
            print_json({{"version", f.version},
                        {"build_type", f.build_type},
                        {"openmp_threads", f.openmp_max_threads},
                        {"cuda", f.cuda},
                        {"portable", f.portable},
                        {"cuda_devices", f.cuda_devices},
                        {"cuda_note", f.cuda_note},
                        {"mpi", f.mpi},
                        {"hdf5", f.hdf5_version},
                        {"assertions", f.assertions}});
            return;
        }
        std::printf("volley %s (%s build)\n", f.version.c_str(), f.build_type.c_str());
        std::printf("  OpenMP threads : %d\n", f.openmp_max_threads);
        std::printf("  CUDA           : %s\n", f.cuda ? "built (--backend cuda)" : "not built");
        if (f.cuda_devices.empty()) std::printf("  CUDA devices   : none (%s)\n", f.cuda_note.c_str());
        for (const auto& d : f.cuda_devices) std::printf("  CUDA device    : %s\n", d.c_str());
        std::printf("  portable       : %s\n", f.portable ? "built (--backend portable: Thrust on OpenMP)" : "not built");
        std::printf("  MPI            : %s\n", f.mpi ? "built" : "not built");
        std::printf("  HDF5           : %s\n", f.hdf5_version.c_str());
        std::printf("  assertions     : %s\n", f.assertions ? "on" : "off");
    });
}

}  // namespace volley::cli
