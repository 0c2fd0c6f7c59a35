#pragma once
// episode.svg of `volley control cartpole --plot` (docs/control.md): one episode at a glance.
// Top: x and θ as fractions of their failure limits over the episode's time, with the actions
// as a coloured band under them; bottom: the network's raster over the first steps.

#include <volley/temporal/control_episode.hpp>

#include <filesystem>
#include <string>

namespace volley::cli {

/// Writes `file` for an episode run with keep_trace (and raster_steps > 0 for the raster).
/// invalid_parameter for an empty trace; io_error naming the file if it cannot be written.
/// The raster's rows are the neurons in ascending id, inputs labelled by the value and group
/// they encode (θ−, θ+; x 0..3 for argyle), outputs by their action.
void write_episode_svg(const std::filesystem::path& file, const temporal::episode_result& episode,
                       const temporal::cartpole_setting& setting, const std::string& title,
                       const hw::tennlab_network& network, const std::vector<hw::node_id>& neuron_ids);

}  // namespace volley::cli
