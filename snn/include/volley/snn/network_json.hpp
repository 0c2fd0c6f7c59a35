#pragma once
// The Volley network file: versioned JSON holding a network and its run settings.
// The schema is documented in docs/network-format.md.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <volley/snn/network.hpp>

namespace volley::snn {

/// The format version this build writes; it reads versions 1 .. network_format_version.
inline constexpr int network_format_version = 1;

/// Run settings stored beside a network.
struct run_settings {
    double dt_ms = 0.1;          ///< [ms]
    double duration_ms = 1000;   ///< [ms]
    std::uint64_t seed = 42;
    friend bool operator==(const run_settings&, const run_settings&) = default;
};

/// A network file's contents.
struct network_file {
    network net;
    run_settings run;
    friend bool operator==(const network_file&, const network_file&) = default;
};

/// Parses a network file from text. `source_name` names it in errors. Throws file_format_error
/// naming the file, the JSON path (e.g. "/projections/2/weight") and the bad value.
network_file parse_network_json(const std::string& text, const std::string& source_name = "<string>");

/// Reads a network file. Throws io_error if it cannot be read, file_format_error if malformed.
network_file load_network_json(const std::filesystem::path& file);

/// Serialises a network and its run settings to JSON text.
std::string to_network_json(const network& net, const run_settings& run = {});

/// Writes a network file atomically (a temporary file renamed over the target), so an
/// existing file is never left truncated. Throws io_error.
void save_network_json(const network& net, const std::filesystem::path& file, const run_settings& run = {});

}  // namespace volley::snn
