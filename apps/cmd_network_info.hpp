#pragma once
// The network files Volley writes, told apart by their content, and `volley info FILE`, which
// describes any of them (docs/network-files.md).

#include "cli_common.hpp"

#include <cstdint>
#include <string>

namespace volley::cli {

/// What a file holds, as far as the command line is concerned.
enum class network_file_kind : std::uint8_t {
    volley_json,       ///< Volley network JSON (docs/network-format.md): `volley run`
    nir,               ///< a NIR graph (HDF5 with /node): `volley run --input`
    converted_snn,     ///< the converted SNN HDF5 (format = volley-snn) of `volley convert --out X.h5`
    tennlab_json,      ///< TENNLab network JSON (Nodes, Edges): `volley danna run`, `volley risp`
    danna_programme,   ///< a placed DANNA programme (format = volley-danna-programme)
    cnn_model,         ///< a trained CNN (Keras, Volley HDF5): input of `volley convert`
    spike_recording,   ///< SONATA spikes or reports written by `volley run --out`
};

/// Reads enough of `path` to tell its kind: the HDF5 signature and then the root's `format`
/// attribute and groups, or the top-level keys of a JSON object. io_error naming the file when
/// it is missing or unreadable; file_format_error naming the file and what was found when it is
/// none of the kinds above (a JSON file that does not parse and ends in .json is taken for
/// network JSON, so that its reader reports the line and column).
network_file_kind detect_network_file(const std::string& path);

/// "Volley network JSON", "NIR graph", ...: the kind as messages name it.
std::string kind_name(network_file_kind kind);

/// Prints what `path` holds: its kind, populations (name, model, size), projections (source,
/// target, connector, delay, synapses as built) and the kind's own facts (NIR nodes, the
/// converted network's layers and λ, TENNLab nodes and edges). With `json`, one JSON object.
void print_network_file_info(const std::string& path, bool json);

}  // namespace volley::cli
