#pragma once
// Reading NumPy arrays: .npy files and the arrays of .npz archives (zip, stored or deflated).
// Every numeric dtype (bool, int and uint of 1 to 8 bytes, float32, float64, either byte order)
// is read into doubles in C order.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::snn {

/// One array: its name in the archive (without ".npy"), its NumPy dtype string ("<f8", ...),
/// its shape and its values in C order.
struct npy_array {
    std::string name;
    std::string dtype;
    std::vector<std::size_t> shape;
    std::vector<double> values;
};

/// The names of the arrays in an .npz archive (member names without ".npy"), in archive order.
/// Throws io_error if the file cannot be read, file_format_error if it is not a zip archive.
std::vector<std::string> npz_array_names(const std::filesystem::path& npz);

/// Reads one array of an .npz archive. Throws unknown_name if there is no such array, and
/// file_format_error naming the file and the array for a corrupt member or an unsupported dtype.
npy_array read_npz_array(const std::filesystem::path& npz, const std::string& name);

/// Reads a .npy file; throws io_error or file_format_error naming the file.
npy_array read_npy(const std::filesystem::path& npy);

}  // namespace volley::snn
