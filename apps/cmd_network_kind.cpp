// Telling the network files apart by content (see cmd_network_info.hpp).

#include "cmd_network_info.hpp"

#include <volley/convert/cnn_readers.hpp>

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

namespace volley::cli {

namespace {

constexpr std::array<unsigned char, 8> hdf5_signature{0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

/// Closes an HDF5 identifier on scope exit.
struct h5_closer {
    hid_t id;
    herr_t (*close)(hid_t);
    ~h5_closer() {
        if (id >= 0) close(id);
    }
};

/// The first string of a string attribute of `obj`, or nullopt (absent, or not a string).
std::optional<std::string> text_attribute(hid_t obj, const char* name) {
    if (H5Aexists(obj, name) <= 0) return std::nullopt;
    const h5_closer a{H5Aopen(obj, name, H5P_DEFAULT), H5Aclose};
    if (a.id < 0) return std::nullopt;
    const h5_closer type{H5Aget_type(a.id), H5Tclose};
    const h5_closer space{H5Aget_space(a.id), H5Sclose};
    if (type.id < 0 || space.id < 0 || H5Tget_class(type.id) != H5T_STRING) return std::nullopt;
    const auto count = static_cast<std::size_t>(std::max<hssize_t>(1, H5Sget_simple_extent_npoints(space.id)));
    if (H5Tis_variable_str(type.id) > 0) {
        std::vector<char*> values(count, nullptr);
        const h5_closer memory{H5Tcopy(H5T_C_S1), H5Tclose};
        H5Tset_size(memory.id, H5T_VARIABLE);
        std::optional<std::string> out;
        if (H5Aread(a.id, memory.id, values.data()) >= 0 && values[0]) out = values[0];
        for (char* v : values)
            if (v) H5free_memory(v);
        return out;
    }
    const std::size_t length = H5Tget_size(type.id);
    std::vector<char> buffer(length * count + 1, '\0');
    if (H5Aread(a.id, type.id, buffer.data()) < 0) return std::nullopt;
    return std::string(buffer.data(), strnlen(buffer.data(), length));
}

bool has_link(hid_t group, const char* name) { return H5Lexists(group, name, H5P_DEFAULT) > 0; }

network_file_kind detect_hdf5(const std::string& path) {
    // HDF5 prints its own error stack unless told not to; Volley's errors say what is wrong.
    H5E_auto2_t saved_func = nullptr;
    void* saved_data = nullptr;
    H5Eget_auto2(H5E_DEFAULT, &saved_func, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    struct restore {
        H5E_auto2_t f;
        void* d;
        ~restore() { H5Eset_auto2(H5E_DEFAULT, f, d); }
    } restore_errors{saved_func, saved_data};
    std::optional<network_file_kind> kind;
    std::string format;
    {
        const h5_closer file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
        if (file.id < 0) throw file_format_error(path, "", "has the HDF5 signature but HDF5 cannot open it (truncated or corrupt?)");
        const h5_closer root{H5Gopen2(file.id, "/", H5P_DEFAULT), H5Gclose};
        format = text_attribute(root.id, "format").value_or("");
        if (format == "volley-snn") kind = network_file_kind::converted_snn;
        else if (format.starts_with("volley-cnn")) kind = network_file_kind::cnn_model;
        else if (has_link(root.id, "node")) kind = network_file_kind::nir;
        else if (has_link(root.id, "spikes") || has_link(root.id, "report")) kind = network_file_kind::spike_recording;
        else if (has_link(root.id, "model_weights") || H5Aexists(root.id, "model_config") > 0 ||
                 H5Aexists(root.id, "layer_names") > 0)
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
        j = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
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
