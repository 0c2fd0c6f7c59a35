#pragma once
// HDF5 files built in memory and written to disk whole. libhdf5 never meets a disk error then:
// a full disk or a file-size limit is a plain failed write of the finished image, reported as an
// io_error naming the file, and nothing but a complete, closed file ever takes the final name
// (it once crashed in HDF5's close at exit and left an unreadable file there).

#include <filesystem>

#include <volley/snn/hdf5_file.hpp>

namespace volley::snn::detail {

/// A new, empty HDF5 file in memory (the core driver, no backing store); `name` names it in
/// errors.
hdf5_id create_hdf5_image(const std::string& name);

/// Writes the in-memory file `image` to `path`: to `path`.tmp first, then renamed over `path`.
/// Throws io_error naming `path` and the bytes when the write fails (the temporary file is removed
/// and a file there before is kept).
void write_hdf5_image(hid_t image, const std::filesystem::path& path);

}  // namespace volley::snn::detail
