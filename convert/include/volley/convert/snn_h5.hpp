#pragma once
// The converted spiking network as an HDF5 file (`volley convert --out snn.h5`), and its reader.
// The layout is in docs/conversion-formats.md ("The converted SNN as HDF5"): populations with
// their model parameters, projections with kernels or weight lists, the spiking layers with
// their λ, the first layer's image map, the conversion settings and the command's options.

#include <volley/convert/snn_conversion.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace volley::convert {

/// What a file holds besides the network.
struct snn_h5_contents {
    converted_snn snn;
    int quantized_bits = 0;  ///< 0: float weights; else the integer mode's B (snn_quantization.hpp)
    nlohmann::json options = nlohmann::json::object();  ///< the options the writer was given
};

/// Writes `c` to `path` (created or truncated). unsupported_model naming the population or
/// projection for what the layout does not hold (models other than discrete_neuron and empty
/// analog_source, connectors other than all_to_all and convolution, distributions, per-synapse
/// delays, plasticity, current stimuli); io_error if the file cannot be written.
void write_snn_h5(const snn_h5_contents& c, const std::string& path);

/// Reads a file written by write_snn_h5 into an identical network. file_format_error naming
/// the file and the object (e.g. "/projections/1 attribute 'target'") for anything missing or
/// malformed; io_error if it cannot be opened.
snn_h5_contents read_snn_h5(const std::string& path);

}  // namespace volley::convert
