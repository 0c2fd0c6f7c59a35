#include <volley/danna/cycle_monitor.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/hdf5_image.hpp>

#include <hdf5.h>

namespace volley::danna {

namespace h5 = volley::snn::detail;

cycle_monitor::cycle_monitor(int width, int height, cycle_t first, cycle_t last)
    : width_(width), height_(height), first_(first), last_(last) {
    if (width < 1 || height < 1)
        throw invalid_parameter("cycle monitor", "size",
                                std::to_string(width) + " x " + std::to_string(height),
                                "must be positive");
    if (first < 0 || last < first)
        throw invalid_parameter("cycle monitor", "window",
                                std::to_string(first) + ".." + std::to_string(last),
                                "needs 0 <= first <= last");
}

void cycle_monitor::record(cycle_t t, const std::vector<std::int16_t>& charge,
                           const std::vector<std::uint8_t>& fired) {
    const auto cells = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
    if (charge.size() != cells || fired.size() != cells)
        throw internal_error("cycle_monitor::record: frame size does not match the grid");
    cycles_.push_back(t);
    charge_.insert(charge_.end(), charge.begin(), charge.end());
    fired_.insert(fired_.end(), fired.begin(), fired.end());
}

std::int16_t cycle_monitor::charge(std::size_t frame, int cell) const {
    return charge_.at(frame * static_cast<std::size_t>(width_ * height_) +
                      static_cast<std::size_t>(cell));
}

bool cycle_monitor::fired(std::size_t frame, int cell) const {
    return fired_.at(frame * static_cast<std::size_t>(width_ * height_) +
                     static_cast<std::size_t>(cell)) != 0;
}

namespace {

void write_dataset(hid_t group, const char* name, hid_t file_type, hid_t mem_type, int rank,
                   const hsize_t* dims, const void* data, const std::string& path) {
    h5::hdf5_id space(H5Screate_simple(rank, dims, nullptr), H5Sclose);
    if (!space.valid()) throw io_error(path, std::string("cannot make the dataspace of ") + name);
    h5::hdf5_id set(
        H5Dcreate2(group, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!set.valid()) throw io_error(path, std::string("cannot create dataset ") + name);
    if (dims[0] > 0)
        h5::check_hdf5(H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), path,
                       std::string("writing ") + name);
}

}  // namespace

void cycle_monitor::write_hdf5(const std::string& path) const {
    h5::hdf5_quiet quiet;
    // Built in memory and written whole (hdf5_image.hpp): a full disk is an io_error naming the
    // file, and no half-written file takes its name.
    h5::hdf5_id file = h5::create_hdf5_image(path);
    h5::hdf5_id group = h5::create_group(file.get(), "monitor", path);
    const hsize_t frames = cycles_.size();
    const hsize_t dims[3] = {frames, static_cast<hsize_t>(height_), static_cast<hsize_t>(width_)};
    write_dataset(group.get(), "charge", H5T_STD_I16LE, H5T_NATIVE_INT16, 3, dims, charge_.data(),
                  path);
    write_dataset(group.get(), "fired", H5T_STD_U8LE, H5T_NATIVE_UINT8, 3, dims, fired_.data(),
                  path);
    write_dataset(group.get(), "cycle", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, dims, cycles_.data(),
                  path);
    const std::uint32_t w = static_cast<std::uint32_t>(width_),
                        h = static_cast<std::uint32_t>(height_),
                        f = static_cast<std::uint32_t>(first_),
                        l = static_cast<std::uint32_t>(last_);
    h5::write_u32_attribute(group.get(), "width", {&w, 1}, path);
    h5::write_u32_attribute(group.get(), "height", {&h, 1}, path);
    h5::write_u32_attribute(group.get(), "first_cycle", {&f, 1}, path);
    h5::write_u32_attribute(group.get(), "last_cycle", {&l, 1}, path);
    group.reset();
    h5::write_hdf5_image(file.get(), path);
}

}  // namespace volley::danna
