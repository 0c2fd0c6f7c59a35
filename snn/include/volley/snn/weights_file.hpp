#pragma once
// Synaptic weights of projections in HDF5 (docs/recording-format.md, "Weights"):
//   /weights/projection_<k>            group; attributes source, target (population names),
//                                      projection (uint32, the index k), rule (e.g. "stdp_pair")
//   /weights/projection_<k>/source     uint64  [n]  local ids in the source population
//   /weights/projection_<k>/target     uint64  [n]  local ids in the target population
//   /weights/projection_<k>/weight     float64 [n]  attribute units = "mV"; taken at time_ms
//   /weights/projection_<k>/time_ms    float64 [1]  when the weights were taken [ms]
// and, when the weights were also sampled during the run:
//   /weights/projection_<k>/history         float64 [n_samples, n]  row i at history_time_ms[i]
//   /weights/projection_<k>/history_time_ms float64 [n_samples]

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::snn {

/// The weights of one projection, as stored in a file.
struct projection_weight_record {
    std::uint32_t projection = 0;  ///< index in network::projections()
    std::string source, target;    ///< population names
    std::string rule;              ///< plasticity rule name ("static", "stdp_pair", "stdp_triplet")
    std::vector<std::uint32_t> sources, targets;
    std::vector<double> weights;  ///< [mV]
    double time_ms = 0;           ///< when `weights` were taken [ms]
    std::vector<double> history_time_ms;  ///< sample times [ms]; empty when not sampled
    std::vector<double> history;          ///< row-major [sample][synapse] [mV]
};

/// Adds /weights (with one group per record) to an HDF5 file: an existing one, such as a closed
/// SONATA spike file, or a new one. io_error if it cannot be written; invalid_parameter if a
/// record's arrays differ in length or the group already exists.
void write_weights(const std::filesystem::path& file, const std::vector<projection_weight_record>& records);

/// Reads every group under /weights, in the order written. io_error if the file cannot be
/// opened; file_format_error naming the file and object if the layout is not the one above.
std::vector<projection_weight_record> read_weights(const std::filesystem::path& file);

}  // namespace volley::snn
