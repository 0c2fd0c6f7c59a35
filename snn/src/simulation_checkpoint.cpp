// simulation::checkpoint and restore (docs/engine.md, "Checkpoints"): the engine's state as
// records (checkpoint/state_archive.hpp) in an HDF5 file (checkpoint/checkpoint_file.hpp),
// with the network's fingerprint, the backend and the thread count that must match.

#include <volley/error.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/sha256.hpp>
#include <volley/snn/simulation.hpp>

#include <filesystem>

#include "backends/engine.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "simulation_impl.hpp"

namespace volley::snn {

namespace {

std::string network_fingerprint(const network& net, const simulation_options& options) {
    detail::sha256 h;
    h.update(to_network_json(net, {.dt_ms = options.dt_ms, .duration_ms = 0, .seed = options.seed}));
    return h.finish_hex();
}

}  // namespace

void simulation::checkpoint(const std::filesystem::path& path) const {
    detail::state_archive a;
    impl_->engine->visit_state(a);
    const detail::checkpoint_header header{.network_sha256 = network_fingerprint(impl_->net, impl_->options),
                                           .backend = impl_->engine->backend_name(),
                                           .threads = impl_->engine->threads(),
                                           .step = impl_->engine->current_step()};
    detail::write_checkpoint(path, header, a.saved());
}

void simulation::restore(const std::filesystem::path& path) {
    detail::checkpoint_header header;
    auto records = detail::read_checkpoint(path, header);
    const std::string file = path.string();
    const std::string fingerprint = network_fingerprint(impl_->net, impl_->options);
    if (header.network_sha256 != fingerprint)
        throw invalid_parameter("checkpoint " + file, "network_sha256", header.network_sha256,
                                "the checkpoint is of another network, dt or seed (this simulation's is " +
                                    fingerprint + ")");
    if (header.backend != impl_->engine->backend_name())
        throw invalid_parameter("checkpoint " + file, "backend", header.backend,
                                "this simulation runs on '" + impl_->engine->backend_name() + "'");
    if (header.threads != impl_->engine->threads())
        throw invalid_parameter("checkpoint " + file, "threads", std::to_string(header.threads),
                                "this simulation runs on " + std::to_string(impl_->engine->threads()) +
                                    " threads; restore with the thread count that wrote it");
    // Keep the current state, so that a record that does not fit leaves the simulation as it was.
    detail::state_archive backup;
    impl_->engine->visit_state(backup);
    const std::size_t expected = backup.size();
    try {
        detail::state_archive a(std::move(records), file);
        impl_->engine->visit_state(a);
        if (a.restored_count() != a.size() || a.size() != expected)
            throw file_format_error(file, "/state",
                                    std::to_string(a.size()) + " records where this simulation has " +
                                        std::to_string(expected));
    } catch (...) {
        detail::state_archive back(backup.saved(), "<backup>");
        impl_->engine->visit_state(back);
        throw;
    }
    impl_->after_restore();
    // A checkpoint killed while it was written leaves its temporary file (checkpoint_file.cpp);
    // the checkpoint it would have replaced is the one just read, so the leftover goes.
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(file + ".tmp"), ec);
}

}  // namespace volley::snn
