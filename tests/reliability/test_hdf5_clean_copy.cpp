// The clean copy a child process makes of every HDF5 file Volley reads (hdf5_file.hpp,
// clean_hdf5_copy and hdf5_copy_in_child; docs/errors.md, "Damaged and hostile HDF5 files"):
// a file written here with the plain HDF5 API, holding each kind of object the readers meet,
// opened through open_hdf5_file, must read back value for value, in the same order; what the
// copy leaves out (external links, compound values) and what it keeps without values (a shape
// that the stored bytes cannot fill) are as documented; and every reader gives the same result
// from the copy as from the file read in place.

#include "../support/snn_test_support.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace vs = volley::snn;
namespace d = volley::snn::detail;
using d::hdf5_id;

std::filesystem::path temp_file(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("volley_clean_copy_" + std::to_string(::getpid()) + "_" + name);
}

void write_attr(hid_t object, const char* name, hid_t file_type, hid_t mem_type, const void* value,
                hsize_t n = 0) {
    hdf5_id space(n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
    hdf5_id a(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    ASSERT_GE(H5Awrite(a.get(), mem_type, value), 0);
}

/// A file with what the readers meet: creation-ordered groups, variable and fixed strings,
/// integer and float attributes and datasets, an h5py-style bool enum, a second hard link, a soft
/// link, an external link, a compound dataset, and a chunked dataset declaring 4e10 floats of
/// which nothing is stored.
std::filesystem::path write_sample() {
    const auto file = temp_file("sample.h5");
    hdf5_id fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
    hdf5_id f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), H5Fclose);
    hdf5_id g = d::create_group(f.get(), "layers", file.string());  // tracks creation order
    const double weights[2][3] = {{1.5, -2.25, 1e-300}, {0, 7, -0.125}};
    const hsize_t dims[2] = {2, 3};
    for (const char* name : {"zeta", "alpha"}) {  // created out of alphabetical order
        hdf5_id s(H5Screate_simple(2, dims, nullptr), H5Sclose);
        hdf5_id ds(H5Dcreate2(g.get(), name, H5T_IEEE_F64BE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose);
        H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, weights);
    }
    d::write_string_attribute(g.get(), "kind", "conv ünïcode", file.string());
    hdf5_id fixed(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(fixed.get(), 6);
    H5Tset_strpad(fixed.get(), H5T_STR_NULLPAD);
    write_attr(f.get(), "names", fixed.get(), fixed.get(), "layer1layer2", 2);
    const std::int16_t shape[3] = {-3, 28, 28};
    write_attr(g.get(), "shape", H5T_STD_I16BE, H5T_NATIVE_INT16, shape, 3);
    // An h5py bool: an enum of int8.
    hdf5_id boolean(H5Tenum_create(H5T_NATIVE_INT8), H5Tclose);
    std::int8_t v = 0;
    H5Tenum_insert(boolean.get(), "FALSE", &v);
    v = 1;
    H5Tenum_insert(boolean.get(), "TRUE", &v);
    const std::int8_t flags[4] = {1, 0, 0, 1};
    const hsize_t four = 4;
    hdf5_id s4(H5Screate_simple(1, &four, nullptr), H5Sclose);
    hdf5_id b(H5Dcreate2(f.get(), "flags", boolean.get(), s4.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              H5Dclose);
    H5Dwrite(b.get(), boolean.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, flags);
    H5Lcreate_hard(f.get(), "/layers/alpha", f.get(), "alias", H5P_DEFAULT, H5P_DEFAULT);
    H5Lcreate_soft("/layers/zeta", f.get(), "shortcut", H5P_DEFAULT, H5P_DEFAULT);
    H5Lcreate_external("/etc/other.h5", "/x", f.get(), "elsewhere", H5P_DEFAULT, H5P_DEFAULT);
    hdf5_id pair(H5Tcreate(H5T_COMPOUND, 8), H5Tclose);
    H5Tinsert(pair.get(), "a", 0, H5T_NATIVE_INT32);
    H5Tinsert(pair.get(), "b", 4, H5T_NATIVE_FLOAT);
    hdf5_id c(H5Dcreate2(f.get(), "pairs", pair.get(), s4.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    const hsize_t huge[2] = {200000, 200000};
    const hsize_t chunk[2] = {64, 64};
    hdf5_id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(dcpl.get(), 2, chunk);
    hdf5_id sh(H5Screate_simple(2, huge, nullptr), H5Sclose);
    hdf5_id h(H5Dcreate2(f.get(), "huge", H5T_IEEE_F32LE, sh.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
              H5Dclose);
    return file;
}

TEST(Hdf5CleanCopy, ReadsBackEveryValueInTheSameOrder) {
    const auto file = write_sample();
    const std::string name = file.string();
    hdf5_id f = d::open_hdf5_file(file, false);
    // The root's and the group's links, in creation order.
    hdf5_id root(H5Gopen2(f.get(), "/", H5P_DEFAULT), H5Gclose);
    EXPECT_EQ(d::child_names(root.get(), name, "/"),
              (std::vector<std::string>{"layers", "flags", "alias", "shortcut", "huge"}));
    hdf5_id g = d::open_group_if_present(f.get(), "layers");
    ASSERT_TRUE(g.valid());
    EXPECT_EQ(d::child_names(g.get(), name, "/layers"), (std::vector<std::string>{"zeta", "alpha"}));
    EXPECT_EQ(d::read_string_attribute(g.get(), "kind"), "conv ünïcode");
    // Values: big-endian doubles and int16 come back as the same numbers.
    for (const char* path : {"/layers/zeta", "/layers/alpha", "/alias", "/shortcut"}) {
        hdf5_id ds = d::open_dataset_if_present(f.get(), path);
        ASSERT_TRUE(ds.valid()) << path;
        EXPECT_EQ(d::dataset_shape(ds.get()), (std::vector<hsize_t>{2, 3}));
        EXPECT_EQ(d::read_dataset_values<double>(ds.get(), H5T_NATIVE_DOUBLE, name, path),
                  (std::vector<double>{1.5, -2.25, 1e-300, 0, 7, -0.125}))
            << path;
    }
    std::int16_t shape[3] = {};
    hdf5_id a(H5Aopen(g.get(), "shape", H5P_DEFAULT), H5Aclose);
    ASSERT_GE(H5Aread(a.get(), H5T_NATIVE_INT16, shape), 0);
    EXPECT_EQ(shape[0], -3);
    EXPECT_EQ(shape[2], 28);
    char names[13] = {};
    hdf5_id fixed(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(fixed.get(), 6);
    H5Tset_strpad(fixed.get(), H5T_STR_NULLPAD);
    hdf5_id na(H5Aopen(root.get(), "names", H5P_DEFAULT), H5Aclose);
    ASSERT_GE(H5Aread(na.get(), fixed.get(), names), 0);
    EXPECT_EQ(std::string(names, 12), "layer1layer2");
    // The enum keeps its members: it reads back as the same enum.
    hdf5_id b = d::open_dataset_if_present(f.get(), "flags");
    ASSERT_TRUE(b.valid());
    hdf5_id bt(H5Dget_type(b.get()), H5Tclose);
    EXPECT_EQ(H5Tget_class(bt.get()), H5T_ENUM);
    std::int8_t flags[4] = {};
    ASSERT_GE(H5Dread(b.get(), bt.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, flags), 0);
    EXPECT_EQ(flags[0], 1);
    EXPECT_EQ(flags[1], 0);
    EXPECT_EQ(flags[3], 1);
    // Left out: the external link (the copy never sends a reader to another file) and the
    // compound dataset (no reader takes one).
    EXPECT_FALSE(d::has_link(f.get(), "elsewhere"));
    EXPECT_FALSE(d::has_link(f.get(), "pairs"));
    // The shape that the file stores nothing for is kept, with nothing stored: the readers'
    // size check refuses it by name before allocating 160 GB.
    hdf5_id h = d::open_dataset_if_present(f.get(), "huge");
    ASSERT_TRUE(h.valid());
    EXPECT_TRUE(vs::testing::throws_naming<volley::file_format_error>(
        [&] { (void)d::checked_element_count(h.get(), 4, name, "/huge"); },
        {name, "/huge", "the shape (200000, 200000)", "stores 0 bytes"}));
    std::filesystem::remove(file);
}

TEST(Hdf5CleanCopy, NotHdf5AndMissingFilesAreTypedErrorsNamingThem) {
    const auto text = temp_file("text.h5");
    { std::FILE* out = std::fopen(text.c_str(), "w"); std::fputs("not hdf5\n", out); std::fclose(out); }
    EXPECT_TRUE(vs::testing::throws_naming<volley::file_format_error>(
        [&] { (void)d::open_hdf5_file(text, false); }, {text.string(), "not an HDF5 file"}));
    std::filesystem::remove(text);
    EXPECT_TRUE(vs::testing::throws_naming<volley::io_error>(
        [&] { (void)d::open_hdf5_file(temp_file("missing.h5"), false); }, {"missing.h5", "no such file"}));
}

// The NIR reader on the copy and on the file itself (VOLLEY_HDF5_PREFLIGHT=0 reads in place):
// the same graph, node for node and value for value (every primitive, a nested graph, a CNN,
// and snnTorch's and Norse's exports).
TEST(Hdf5CleanCopy, TheNirReaderGivesTheSameGraphFromTheCopyAsFromTheFile) {
  const auto nir = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "nir";
  for (const auto& file : {nir / "allprims.nir", nir / "rnn_cuba.nir", nir / "cnn_conv_if.nir",
                           nir / "frameworks" / "snntorch_conv.nir", nir / "frameworks" / "norse_lif.nir"}) {
    SCOPED_TRACE(file.string());
    const auto copied = vs::read_nir(file);
    ::setenv("VOLLEY_HDF5_PREFLIGHT", "0", 1);
    const auto in_place = vs::read_nir(file);
    ::unsetenv("VOLLEY_HDF5_PREFLIGHT");
    ASSERT_FALSE(in_place.nodes.empty());
    EXPECT_EQ(copied.version, in_place.version);
    EXPECT_TRUE(copied == in_place);  // nodes, parameters with their dtypes, subgraphs, edges, metadata
    EXPECT_EQ(copied.order, in_place.order);
  }
}

}  // namespace
