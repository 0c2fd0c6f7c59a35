// In-memory HDF5 files written to disk whole (see hdf5_image.hpp).

#include <volley/snn/hdf5_image.hpp>

#include <volley/error.hpp>
#include <volley/write_error.hpp>

#include "io/write_fully.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace volley::snn::detail {

hdf5_id create_hdf5_image(const std::string& name) {
    hdf5_quiet quiet;
    hdf5_id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0)
        throw io_error(name, "HDF5 cannot make an in-memory file");
    hdf5_id id(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!id.valid()) throw io_error(name, "HDF5 cannot make an in-memory file");
    return id;
}

void write_hdf5_image(hid_t image, const std::filesystem::path& path) {
    const std::string name = path.string();
    std::vector<char> bytes;
    {
        hdf5_quiet quiet;
        check_hdf5(H5Fflush(image, H5F_SCOPE_GLOBAL), name, "flush the file");
        const ssize_t size = H5Fget_file_image(image, nullptr, 0);
        if (size < 0) throw io_error(name, "HDF5 failed to give the file's image");
        bytes.resize(static_cast<std::size_t>(size));
        if (H5Fget_file_image(image, bytes.data(), bytes.size()) != size)
            throw io_error(name, "HDF5 failed to give the file's image");
    }
    auto tmp = path;
    tmp += ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw io_error(name, std::string("cannot create ") + tmp.string() + ": " + std::strerror(errno));
    int err = 0;
    const std::size_t done = write_fully(fd, bytes.data(), bytes.size(), err);
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    std::error_code ec;
    if (err != 0) {
        std::filesystem::remove(tmp, ec);
        throw io_error(name, "cannot write its " + std::to_string(bytes.size()) + " bytes (" + write_error_text(err, path) +
                                 " after " + std::to_string(done) + "); nothing was written under this name, and a "
                                 "file there before is kept");
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw io_error(name, "cannot replace the file: " + ec.message());
    }
}

}  // namespace volley::snn::detail
