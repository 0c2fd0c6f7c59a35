#pragma once
// Reading the reference arrays of a test fixture with the HDF5 C API directly, so that the
// expected values do not pass through Volley's own HDF5 layer.

#include <hdf5.h>

#include <cstddef>
#include <vector>

namespace volley::testing {

/// The whole dataset `name` of an open `file` as floats, its shape in `dims`.
inline std::vector<float> read_float_dataset(hid_t file, const char* name, std::vector<hsize_t>& dims) {
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::size_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<float> v(n);
    H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(space);
    H5Dclose(ds);
    return v;
}

}  // namespace volley::testing
