// SONATA report files: written by sonata_report_writer, checked with the plain HDF5 C API and
// with read_sonata_report.

#include <volley/error.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include "io/sonata_layout.hpp"
#include "io_test_dir.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vs = volley::snn;

namespace {

using sonata_report_test = volley::test::io_test;

std::vector<double> raw_read_f64(hid_t file, const char* path, std::vector<hsize_t>* shape) {
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    hid_t space = H5Dget_space(d);
    int rank = H5Sget_simple_extent_ndims(space);
    shape->assign(static_cast<std::size_t>(rank), 0);
    H5Sget_simple_extent_dims(space, shape->data(), nullptr);
    std::vector<double> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (!out.empty()) {
        EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
    }
    H5Sclose(space);
    H5Dclose(d);
    return out;
}

std::string raw_string_attribute(hid_t file, const char* object, const char* name) {
    hid_t attr = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << object << " @" << name;
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    char* text = nullptr;
    EXPECT_GE(H5Aread(attr, type, &text), 0);
    std::string value = text ? text : "";
    H5free_memory(text);
    H5Tclose(type);
    H5Aclose(attr);
    return value;
}

const std::vector<std::uint64_t> three_nodes{10, 20, 30};

}  // namespace

TEST_F(sonata_report_test, round_trip_gives_back_rows_mapping_and_time) {
    const auto file = dir / "report.h5";
    {
        vs::sonata_report_writer w(file);
        auto r = w.add_report("exc", "v_mv", "mV", three_nodes, 5.0, 0.1);
        EXPECT_EQ(w.group_path(r), "/report/exc");
        for (int s = 0; s < 4; ++s)
            w.append(r, std::vector<double>{-65.0 + s, -64.5 + s, -64.0 + s});
    }
    auto reports = vs::read_sonata_report(file);
    ASSERT_EQ(reports.size(), 1u);
    const auto& r = reports[0];
    EXPECT_EQ(r.population, "exc");
    EXPECT_EQ(r.variable, "v_mv");
    EXPECT_EQ(r.units, "mV");
    EXPECT_EQ(r.node_ids, three_nodes);
    EXPECT_EQ(r.samples, 4u);
    EXPECT_DOUBLE_EQ(r.t_start_ms, 5.0);
    EXPECT_DOUBLE_EQ(r.dt_ms, 0.1);
    EXPECT_DOUBLE_EQ(r.t_stop_ms, 5.0 + 4 * 0.1);
    ASSERT_EQ(r.data.size(), 12u);
    EXPECT_EQ(r.data[0], -65.0);
    EXPECT_EQ(r.data[5], -63.0);  // sample 1, node 30
    EXPECT_EQ(r.data[11], -61.0);
}

TEST_F(sonata_report_test, layout_and_attributes_match_sonata_via_raw_hdf5) {
    const auto file = dir / "raw.h5";
    {
        vs::sonata_report_writer w(file);
        auto r = w.add_report("inh", "g_e_ns", "nS", three_nodes, 0.0, 0.5);
        w.append(r, std::vector<double>{1, 2, 3});
        w.append(r, std::vector<double>{4, 5, 6});
    }
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    EXPECT_EQ(raw_read_f64(f, "/report/inh/data", &shape), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(shape, (std::vector<hsize_t>{2, 3}));
    EXPECT_EQ(raw_read_f64(f, "/report/inh/mapping/time", &shape),
              (std::vector<double>{0.0, 1.0, 0.5}));
    EXPECT_EQ(raw_string_attribute(f, "/report/inh/data", "units"), "nS");
    EXPECT_EQ(raw_string_attribute(f, "/report/inh/data", "variable"), "g_e_ns");
    EXPECT_EQ(raw_string_attribute(f, "/report/inh/mapping/time", "units"), "ms");

    hid_t data = H5Dopen2(f, "/report/inh/data", H5P_DEFAULT);
    hid_t plist = H5Dget_create_plist(data);
    EXPECT_EQ(H5Pget_layout(plist), H5D_CHUNKED);
    hid_t space = H5Dget_space(data);
    hsize_t dims[2], max_dims[2];
    H5Sget_simple_extent_dims(space, dims, max_dims);
    EXPECT_EQ(max_dims[0], H5S_UNLIMITED);
    EXPECT_EQ(max_dims[1], 3u);
    H5Sclose(space);
    H5Pclose(plist);
    H5Dclose(data);

    hid_t ids = H5Dopen2(f, "/report/inh/mapping/node_ids", H5P_DEFAULT);
    hid_t type = H5Dget_type(ids);
    EXPECT_GT(H5Tequal(type, H5T_STD_U64LE), 0);
    std::uint64_t values[3] = {};
    EXPECT_GE(H5Dread(ids, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), 0);
    EXPECT_EQ(values[2], 30u);
    H5Tclose(type);
    H5Dclose(ids);
    H5Fclose(f);
}

TEST_F(sonata_report_test, report_is_added_to_a_closed_spike_file) {
    const auto file = dir / "both.h5";
    {
        vs::sonata_spike_writer spikes(file);
        auto p = spikes.add_population("exc");
        spikes.append(p, std::vector<std::uint64_t>{1}, std::vector<double>{0.5});
    }
    {
        auto w = vs::sonata_report_writer::append_to(file);
        auto r = w.add_report("exc", "v_mv", "mV", std::vector<std::uint64_t>{1}, 0.0, 1.0);
        w.append(r, std::vector<double>{-70.0});
    }
    auto spikes = vs::read_sonata_spikes(file);
    ASSERT_EQ(spikes.size(), 1u);
    EXPECT_EQ(spikes[0].timestamps_ms, (std::vector<double>{0.5}));
    auto reports = vs::read_sonata_report(file);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].data, (std::vector<double>{-70.0}));
    EXPECT_THROW(vs::sonata_report_writer::append_to(dir / "missing.h5"), volley::io_error);
}

TEST_F(sonata_report_test, second_variable_of_a_population_gets_its_own_group) {
    const auto file = dir / "two_vars.h5";
    {
        vs::sonata_report_writer w(file);
        auto v = w.add_report("exc", "v_mv", "mV", three_nodes, 0.0, 1.0);
        auto g = w.add_report("exc", "g_e_ns", "nS", std::vector<std::uint64_t>{20}, 0.0, 2.0);
        EXPECT_EQ(w.group_path(v), "/report/exc");
        EXPECT_EQ(w.group_path(g), "/report/exc__g_e_ns");
        EXPECT_THROW(w.add_report("exc", "v_mv", "mV", three_nodes, 0.0, 1.0),
                     volley::invalid_parameter);
        EXPECT_THROW(w.add_report("exc", "g_e_ns", "nS", three_nodes, 0.0, 1.0),
                     volley::invalid_parameter);
        w.append(v, std::vector<double>{1, 2, 3});
        w.append(g, std::vector<double>{7});
    }
    auto reports = vs::read_sonata_report(file);
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_EQ(reports[0].population, "exc");
    EXPECT_EQ(reports[0].variable, "v_mv");
    EXPECT_EQ(reports[1].population, "exc");
    EXPECT_EQ(reports[1].variable, "g_e_ns");
    EXPECT_EQ(reports[1].data, (std::vector<double>{7}));
    EXPECT_DOUBLE_EQ(reports[1].t_stop_ms, 2.0);
}

TEST_F(sonata_report_test, rows_beyond_the_chunk_size_round_trip) {
    const auto file = dir / "wide.h5";
    const std::size_t n_nodes = volley::snn::detail::report_chunk_values / 2;  // 2 rows a chunk
    std::vector<std::uint64_t> ids(n_nodes);
    for (std::size_t i = 0; i < n_nodes; ++i) ids[i] = i;
    {
        vs::sonata_report_writer w(file);
        auto r = w.add_report("big", "v_mv", "mV", ids, 0.0, 0.1);
        std::vector<double> row(n_nodes);
        for (int s = 0; s < 7; ++s) {
            for (std::size_t i = 0; i < n_nodes; ++i) row[i] = s * 1e6 + double(i);
            w.append(r, row);
            if (s == 2) w.flush();
        }
    }
    auto reports = vs::read_sonata_report(file);
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_EQ(reports[0].samples, 7u);
    EXPECT_EQ(reports[0].data[6 * n_nodes + 17], 6e6 + 17);
    EXPECT_EQ(reports[0].data[3 * n_nodes + n_nodes - 1], 3e6 + double(n_nodes - 1));
}

TEST_F(sonata_report_test, flush_updates_t_stop_and_data_on_disk_before_a_crash) {
    const auto file = dir / "crash.h5";
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        try {
            vs::sonata_report_writer w(file);
            auto r = w.add_report("exc", "v_mv", "mV", three_nodes, 1.0, 0.25);
            for (int s = 0; s < 6; ++s) w.append(r, std::vector<double>{double(s), 0, 0});
            w.flush();
            w.append(r, std::vector<double>{99, 99, 99});
            _exit(1);
        } catch (...) {
            _exit(2);
        }
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 1);
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    auto time = raw_read_f64(f, "/report/exc/mapping/time", &shape);
    auto data = raw_read_f64(f, "/report/exc/data", &shape);
    H5Fclose(f);
    ASSERT_EQ(time.size(), 3u);
    EXPECT_DOUBLE_EQ(time[1], 1.0 + 6 * 0.25);
    ASSERT_EQ(shape[0], 6u);
    EXPECT_EQ(data[5 * 3], 5.0);
}

TEST_F(sonata_report_test, invalid_reports_and_rows_are_rejected) {
    vs::sonata_report_writer w(dir / "bad.h5");
    EXPECT_THROW(w.add_report("exc", "v_mv", "mV", {}, 0.0, 0.1), volley::invalid_parameter);
    EXPECT_THROW(w.add_report("exc", "v_mv", "mV", three_nodes, 0.0, 0.0),
                 volley::invalid_parameter);
    EXPECT_THROW(w.add_report("exc", "v/mv", "mV", three_nodes, 0.0, 0.1),
                 volley::invalid_parameter);
    auto r = w.add_report("exc", "v_mv", "mV", three_nodes, 0.0, 0.1);
    EXPECT_THROW(w.append(r, std::vector<double>{1, 2}), volley::invalid_parameter);
    EXPECT_THROW(w.append(r + 1, std::vector<double>{1, 2, 3}), volley::invalid_parameter);
}

TEST_F(sonata_report_test, reader_names_missing_objects) {
    const auto spikes_only = dir / "spikes_only.h5";
    { vs::sonata_spike_writer(spikes_only).add_population("exc"); }
    try {
        vs::read_sonata_report(spikes_only);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/report");
        EXPECT_EQ(e.file(), spikes_only.string());
    }
    const auto no_time = dir / "no_time.h5";
    hid_t f = H5Fcreate(no_time.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    for (const char* g : {"/report", "/report/exc", "/report/exc/mapping"})
        H5Gclose(H5Gcreate2(f, g, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t dims[2] = {1, 1};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    H5Dclose(H5Dcreate2(f, "/report/exc/data", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT));
    H5Sclose(space);
    space = H5Screate_simple(1, dims, nullptr);
    H5Dclose(H5Dcreate2(f, "/report/exc/mapping/node_ids", H5T_STD_U64LE, space, H5P_DEFAULT,
                        H5P_DEFAULT, H5P_DEFAULT));
    H5Sclose(space);
    H5Fclose(f);
    try {
        vs::read_sonata_report(no_time);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/report/exc/mapping/time");
    }
}
