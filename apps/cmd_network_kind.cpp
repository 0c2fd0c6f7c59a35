// Telling the network files apart by content (see cmd_network_info.hpp).

#include "cmd_network_info.hpp"

#include <volley/convert/cnn_readers.hpp>
#include <volley/json_text.hpp>
#include <volley/snn/hdf5_file.hpp>

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

namespace volley::cli {

namespace {

constexpr std::array<unsigned char, 8> hdf5_signature{0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

network_file_kind detect_hdf5(const std::string& path) {
    const snn::detail::hdf5_quiet quiet;  // Volley's errors say what is wrong, not HDF5's stack
    std::optional<network_file_kind> kind;
    std::string format;
    {
        using snn::detail::has_link;
        // The clean copy read in a child process: a file that crashes libhdf5 is refused here.
        const snn::detail::hdf5_id file = snn::detail::open_hdf5_file(path, false);
        const snn::detail::hdf5_id root(H5Gopen2(file.get(), "/", H5P_DEFAULT), H5Gclose);
        format = snn::detail::read_string_attribute(root.get(), "format").value_or("");
        if (format == "volley-snn") kind = network_file_kind::converted_snn;
        else if (format.starts_with("volley-cnn")) kind = network_file_kind::cnn_model;
        else if (has_link(root.get(), "node")) kind = network_file_kind::nir;
        else if (has_link(root.get(), "spikes") || has_link(root.get(), "report")) kind = network_file_kind::spike_recording;
        else if (has_link(root.get(), "model_weights") || H5Aexists(root.get(), "model_config") > 0 ||
                 H5Aexists(root.get(), "layer_names") > 0)
            kind = network_file_kind::cnn_model;
    }
    if (kind) return *kind;
    try {
        (void)convert::read_cnn(path);
        return network_file_kind::cnn_model;
    } catch (const error&) {
    }
    throw file_format_error(path, "/",
                            "an HDF5 file that is none of the files Volley reads: not a converted network "
                            "(attribute format = volley-snn" +
                                (format.empty() ? std::string() : ", found '" + format + "'") +
                                "), a NIR graph (group /node), a SONATA recording (/spikes, /report) or a CNN model");
}

network_file_kind detect_json(const std::string& path, const std::string& head) {
    // The writers put "format" first; a look at the head spares parsing a large file twice.
    if (head.find("\"volley-network\"") != std::string::npos) return network_file_kind::volley_json;
    if (head.find("\"volley-danna-programme\"") != std::string::npos) return network_file_kind::danna_programme;
    nlohmann::json j;
    try {
        std::ifstream in(path);
        j = parse_json_stream(in, path);
    } catch (const file_format_error& e) {
        if (std::filesystem::path(path).extension() == ".json") return network_file_kind::volley_json;
        throw file_format_error(path, "", std::string("starts like JSON but is not JSON: ") + e.what());
    }
    if (!j.is_object()) throw file_format_error(path, "", "a JSON " + std::string(j.type_name()) + ", not a network object");
    if (j.contains("Nodes") || j.contains("Edges")) return network_file_kind::tennlab_json;
    if (j.contains("populations") || j.contains("format")) return network_file_kind::volley_json;
    throw file_format_error(path, "",
                            "a JSON object that is not a network Volley reads: no \"format\": \"volley-network\" "
                            "(Volley network JSON), no \"Nodes\"/\"Edges\" (TENNLab network JSON)");
}

}  // namespace

network_file_kind detect_network_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw io_error(path, "no such file");
    if (std::filesystem::is_directory(path, ec)) throw io_error(path, "is a directory, not a network file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw io_error(path, "cannot open the file");
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.empty()) throw file_format_error(path, "", "the file is empty");
    if (head.size() >= hdf5_signature.size() && std::memcmp(head.data(), hdf5_signature.data(), hdf5_signature.size()) == 0)
        return detect_hdf5(path);
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && head[first] == '{') return detect_json(path, head);
    if (std::filesystem::path(path).extension() == ".json") return network_file_kind::volley_json;
    throw file_format_error(path, "",
                            "neither HDF5 nor JSON: Volley's network files are network JSON, TENNLab network JSON, "
                            "NIR (.nir) and the converted SNN HDF5 (.h5); see docs/network-files.md");
}

std::string kind_name(network_file_kind kind) {
    switch (kind) {
        case network_file_kind::volley_json: return "Volley network JSON";
        case network_file_kind::nir: return "NIR graph";
        case network_file_kind::converted_snn: return "converted SNN (HDF5)";
        case network_file_kind::tennlab_json: return "TENNLab network JSON";
        case network_file_kind::danna_programme: return "DANNA programme";
        case network_file_kind::cnn_model: return "CNN model";
        case network_file_kind::spike_recording: return "SONATA recording";
    }
    return "unknown";
}

}  // namespace volley::cli
