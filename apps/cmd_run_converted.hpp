#pragma once
// `volley run snn.h5 --input IMAGES`: runs the converted network of `volley convert --out snn.h5`
// on images, with the input coding, readout and seed stored in the file (docs/network-files.md).

#include "cli_common.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace volley::cli {

/// The options of `volley run` that apply to a converted network.
struct converted_run_options {
    std::string file;
    /// The images: fashion-mnist, idx:PREFIX, npz:FILE, or a path ending in .npz.
    std::string input;
    std::optional<std::int64_t> steps;   ///< one checkpoint T; default: the --timesteps stored in the file
    std::optional<std::uint64_t> seed;   ///< of spike-coded inputs; default: the stored seed
    std::size_t limit = 0;               ///< the first N images (0: all)
    int threads = 0;                     ///< image workers; 0: all cores
    std::string cpu_isa = "best";        ///< --cpu-isa
    bool json = false, quiet = false;
};

/// Evaluates the network on the images and prints, per checkpoint T, the accuracy (when the
/// images have labels), spikes and synaptic events per image, then each layer's spikes and the
/// predicted classes. invalid_parameter naming the file when --input is missing or the images
/// do not fit the network.
void run_converted_file(const converted_run_options& o);

}  // namespace volley::cli
