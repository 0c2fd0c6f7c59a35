// Each kind of bad NIR file gets a typed error naming the node or dataset. The bad files are a
// valid file written by write_nir, then broken with the plain HDF5 C API.

#include "io_test_dir.hpp"

#include <volley/error.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

#include <fstream>
#include <string>
#include <vector>

namespace vs = volley::snn;
using volley::test::io_test;

namespace {

/// Input(4) -> Affine fc (3x4) -> LIF lif (3) -> Output.
vs::nir_graph small_graph() {
    using params = std::map<std::string, vs::nir_array>;
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input",
                         params{{"shape", vs::nir_array::vector({4}, vs::nir_dtype::int64)}});
    vs::nir_array w;
    w.shape = {3, 4};
    w.values.assign(12, 0.5);
    g.nodes.emplace_back("fc", "Affine",
                         params{{"weight", w}, {"bias", vs::nir_array::vector({0, 0, 0})}});
    g.nodes.emplace_back("lif", "LIF",
                         params{{"tau", vs::nir_array::vector({0.01, 0.01, 0.01})},
                                {"r", vs::nir_array::scalar(1)},
                                {"v_leak", vs::nir_array::scalar(0)},
                                {"v_threshold", vs::nir_array::scalar(1)}});
    g.nodes.emplace_back("out", "Output");
    g.edges = {{"in", "fc"}, {"fc", "lif"}, {"lif", "out"}};
    return g;
}

/// Opens `file` read-write for the breaking edits; closes it when destroyed.
struct h5_edit {
    explicit h5_edit(const std::filesystem::path& file)
        : id(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {}
    ~h5_edit() { H5Fclose(id); }
    void remove(const char* path) { EXPECT_GE(H5Ldelete(id, path, H5P_DEFAULT), 0) << path; }
    void text(const char* path, const char* value) {
        hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, H5T_VARIABLE);
        hid_t space = H5Screate(H5S_SCALAR);
        hid_t d = H5Dcreate2(id, path, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value);
        H5Dclose(d), H5Sclose(space), H5Tclose(type);
    }
    void numbers(const char* path, std::vector<hsize_t> dims, std::vector<double> values,
                 hid_t file_type = H5T_IEEE_F64LE) {
        hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
        hid_t d = H5Dcreate2(id, path, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
        H5Dclose(d), H5Sclose(space);
    }
    void edges(const std::vector<const char*>& names) {
        remove("/node/edges");
        hid_t type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, H5T_VARIABLE);
        hsize_t dims[2] = {names.size() / 2, 2};
        hid_t space = H5Screate_simple(2, dims, nullptr);
        hid_t d = H5Dcreate2(id, "/node/edges", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, names.data());
        H5Dclose(d), H5Sclose(space), H5Tclose(type);
    }
    hid_t id;
};

}  // namespace

class nir_errors : public io_test {
  protected:
    std::filesystem::path valid_file() {
        auto path = dir / "small.nir";
        vs::write_nir(small_graph(), path);
        return path;
    }
    /// Reads `path`, expecting file_format_error at `location` whose message holds `text`.
    void expect_format_error(const std::filesystem::path& path, const std::string& location,
                             const std::string& text) {
        ::testing::internal::CaptureStderr();
        try {
            vs::read_nir(path);
            ::testing::internal::GetCapturedStderr();
            ADD_FAILURE() << "expected file_format_error at " << location;
        } catch (const volley::file_format_error& e) {
            EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // no HDF5 dump
            EXPECT_EQ(e.file(), path.string());
            EXPECT_EQ(e.location(), location) << e.what();
            EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
        }
    }
};

TEST_F(nir_errors, the_valid_file_reads) {
    auto g = vs::read_nir(valid_file());
    EXPECT_EQ(g.find("lif")->output_shape, std::vector<std::size_t>{3});
}

TEST_F(nir_errors, missing_type_names_the_node) {
    auto path = valid_file();
    h5_edit(path).remove("/node/nodes/lif/type");
    expect_format_error(path, "/node/nodes/lif", "node 'lif' has no 'type'");
}

TEST_F(nir_errors, unknown_primitive_names_the_node_and_type) {
    auto path = valid_file();
    {
        h5_edit f(path);
        f.remove("/node/nodes/lif/type");
        f.text("/node/nodes/lif/type", "Izhikevich");
    }
    expect_format_error(path, "/node/nodes/lif", "unknown type 'Izhikevich'");
}

TEST_F(nir_errors, unknown_parameter_names_the_node) {
    auto path = valid_file();
    h5_edit(path).numbers("/node/nodes/lif/colour", {1}, {3});
    expect_format_error(path, "/node/nodes/lif/colour",
                        "unknown parameter 'colour' of LIF node 'lif'");
}

TEST_F(nir_errors, edge_to_a_missing_node_names_it) {
    auto path = valid_file();
    h5_edit(path).edges({"in", "fc", "fc", "ghost", "lif", "out"});
    expect_format_error(path, "/node/edges", "names node 'ghost'");
}

TEST_F(nir_errors, mismatched_weight_shape_names_the_node) {
    auto path = valid_file();
    {
        h5_edit f(path);
        f.remove("/node/nodes/fc/weight");
        f.numbers("/node/nodes/fc/weight", {3, 5}, std::vector<double>(15, 1.0));
    }
    expect_format_error(path, "/node/nodes/fc", "Affine node 'fc': weight has shape [3, 5]");
}

TEST_F(nir_errors, mismatched_neuron_parameter_names_the_node) {
    auto path = valid_file();
    {
        h5_edit f(path);
        f.remove("/node/nodes/lif/tau");
        f.numbers("/node/nodes/lif/tau", {2}, {0.01, 0.01});
    }
    expect_format_error(path, "/node/nodes/lif", "parameter 'tau' has shape [2]");
}

TEST_F(nir_errors, negative_tau_is_an_invalid_parameter) {
    auto path = valid_file();
    {
        h5_edit f(path);
        f.remove("/node/nodes/lif/tau");
        f.numbers("/node/nodes/lif/tau", {3}, {0.01, -0.02, 0.01}, H5T_IEEE_F32LE);
    }
    try {
        vs::read_nir(path);
        FAIL() << "expected invalid_parameter";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "tau");
        EXPECT_NE(e.object().find("/node/nodes/lif"), std::string::npos) << e.what();
        EXPECT_EQ(e.value(), "-0.02");
    }
}

TEST_F(nir_errors, missing_required_parameter_names_it) {
    auto path = valid_file();
    h5_edit(path).remove("/node/nodes/lif/v_threshold");
    expect_format_error(path, "/node/nodes/lif", "lacks parameter 'v_threshold'");
}

TEST_F(nir_errors, a_file_that_is_not_hdf5_is_a_format_error) {
    auto path = dir / "text.nir";
    std::ofstream(path) << "this is not HDF5\n";
    expect_format_error(path, "", "not an HDF5 file");
}

TEST_F(nir_errors, a_missing_file_is_an_io_error) {
    EXPECT_THROW(vs::read_nir(dir / "absent.nir"), volley::io_error);
}

TEST_F(nir_errors, an_hdf5_file_without_a_graph_is_a_format_error) {
    auto path = valid_file();
    h5_edit(path).remove("/node");
    expect_format_error(path, "/node", "no /node group");
}

TEST_F(nir_errors, bad_padding_string_names_the_parameter) {
    auto g = small_graph();
    vs::nir_array w;
    w.shape = {2, 4, 3};
    w.values.assign(24, 1.0);
    g.nodes.emplace_back("conv", "Conv1d",
                         std::map<std::string, vs::nir_array>{
                             {"weight", w}, {"padding", vs::nir_array::string("full")}});
    EXPECT_THROW(vs::analyse_nir_graph(g), volley::file_format_error);
}

TEST_F(nir_errors, write_refuses_an_invalid_graph) {
    auto g = small_graph();
    g.edges.emplace_back("lif", "nowhere");
    EXPECT_THROW(vs::write_nir(g, dir / "bad.nir"), volley::file_format_error);
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.nir"));
}
