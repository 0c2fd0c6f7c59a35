// The NumPy reader: .npy and .npz (stored and deflated), dtypes, Fortran order, and errors that
// name the file and the array. The archives are written by a small writer in the test support.

#include <volley/error.hpp>
#include <volley/snn/npz_file.hpp>

#include <gtest/gtest.h>

#include <fstream>

#include "../support/npz_writer.hpp"
#include "io_test_dir.hpp"

namespace vs = volley::snn;
using volley::test::io_test;

namespace {

using npz_file = io_test;

TEST_F(npz_file, ReadsStoredAndDeflatedArchives) {
    const std::vector<double> x{0.5, -1.25, 3, 4, 5, 6};
    const std::vector<double> labels{7, -3};
    for (bool deflate : {false, true}) {
        const auto file = (dir / (deflate ? "d.npz" : "s.npz")).string();
        volley::test::write_zip(file, {{"x.npy", volley::test::npy_bytes({3, 2}, x)},
                                       {"labels.npy", volley::test::npy_bytes({2}, labels, "<i4")}}, deflate);
        EXPECT_EQ(vs::npz_array_names(file), (std::vector<std::string>{"x", "labels"}));
        const auto a = vs::read_npz_array(file, "x");
        EXPECT_EQ(a.name, "x");
        EXPECT_EQ(a.dtype, "<f8");
        EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 2}));
        EXPECT_EQ(a.values, x);
        const auto l = vs::read_npz_array(file, "labels");
        EXPECT_EQ(l.dtype, "<i4");
        EXPECT_EQ(l.shape, (std::vector<std::size_t>{2}));
        EXPECT_EQ(l.values, labels);
    }
}

TEST_F(npz_file, ReadsNpyFilesInFortranOrder) {
    // Fortran order stores the 2x3 matrix [[1,2,3],[4,5,6]] column by column.
    std::ofstream(dir / "m.npy", std::ios::binary) << volley::test::npy_bytes({2, 3}, {1, 4, 2, 5, 3, 6}, "<f8", true);
    const auto a = vs::read_npy(dir / "m.npy");
    EXPECT_EQ(a.name, "m");
    EXPECT_EQ(a.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST_F(npz_file, ErrorsNameTheFileAndTheArray) {
    const auto file = (dir / "a.npz").string();
    volley::test::write_zip(file, {{"x.npy", volley::test::npy_bytes({2}, {1, 2})}}, true);
    try {
        vs::read_npz_array(file, "y");
        FAIL() << "no exception";
    } catch (const volley::unknown_name& e) {
        EXPECT_NE(std::string(e.what()).find("a.npz"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
    }
    // A member whose .npy is cut short.
    auto bytes = volley::test::npy_bytes({100}, std::vector<double>(100, 1.0));
    bytes.resize(bytes.size() - 16);
    volley::test::write_zip(file, {{"x.npy", bytes}}, false);
    try {
        vs::read_npz_array(file, "x");
        FAIL() << "no exception";
    } catch (const volley::file_format_error& e) {
        EXPECT_NE(std::string(e.what()).find("a.npz"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("array 'x'"), std::string::npos) << e.what();
    }
    std::ofstream(dir / "junk.npz") << "this is not a zip archive at all, just some text";
    EXPECT_THROW(vs::npz_array_names(dir / "junk.npz"), volley::file_format_error);
    EXPECT_THROW(vs::npz_array_names(dir / "missing.npz"), volley::io_error);
}

}  // namespace
