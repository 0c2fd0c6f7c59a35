// SONATA spike files: written by sonata_spike_writer, checked with the plain HDF5 C API and with
// read_sonata_spikes.

#include <volley/error.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include "io/sonata_layout.hpp"
#include "io_test_dir.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>

namespace vs = volley::snn;
using volley::test::io_test;

namespace {

using sonata_spikes_test = io_test;

std::vector<std::uint64_t> raw_read_u64(hid_t file, const char* path) {
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    hid_t space = H5Dget_space(d);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (!out.empty()) {
        EXPECT_GE(H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
    }
    H5Sclose(space);
    H5Dclose(d);
    return out;
}

std::vector<double> raw_read_f64(hid_t file, const char* path) {
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    hid_t space = H5Dget_space(d);
    std::vector<double> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (!out.empty()) {
        EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
    }
    H5Sclose(space);
    H5Dclose(d);
    return out;
}

std::string raw_read_string_attribute(hid_t object, const char* name) {
    hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << name;
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

std::string raw_sorting_name(hid_t file, const char* group_path) {
    hid_t group = H5Gopen2(file, group_path, H5P_DEFAULT);
    hid_t attr = H5Aopen(group, "sorting", H5P_DEFAULT);
    hid_t type = H5Aget_type(attr);
    EXPECT_EQ(H5Tget_class(type), H5T_ENUM);
    std::uint8_t value = 255;
    EXPECT_EQ(H5Tget_size(type), 1u);
    EXPECT_GE(H5Aread(attr, type, &value), 0);
    char name[32] = {};
    EXPECT_GE(H5Tenum_nameof(type, &value, name, sizeof name), 0);
    H5Tclose(type);
    H5Aclose(attr);
    H5Gclose(group);
    return name;
}

}  // namespace

TEST_F(sonata_spikes_test, round_trip_keeps_populations_in_order_and_values_exact) {
    const auto file = dir / "spikes.h5";
    {
        vs::sonata_spike_writer w(file);
        EXPECT_EQ(w.path(), file);
        auto exc = w.add_population("exc");
        auto inh = w.add_population("inh");
        std::vector<std::uint64_t> ids{3, 1, 4};
        std::vector<double> t{0.1, 0.2, 0.30000000000000004};
        w.append(exc, ids, t);
        w.append(inh, std::vector<std::uint64_t>{7}, std::vector<double>{1.5});
        w.append(exc, std::vector<std::uint64_t>{1}, std::vector<double>{2.25});
        EXPECT_EQ(w.spike_count(exc), 4u);
        w.close();
        w.close();  // idempotent
    }
    auto pops = vs::read_sonata_spikes(file);
    ASSERT_EQ(pops.size(), 2u);
    EXPECT_EQ(pops[0].population, "exc");
    EXPECT_EQ(pops[0].node_ids, (std::vector<std::uint64_t>{3, 1, 4, 1}));
    EXPECT_EQ(pops[0].timestamps_ms, (std::vector<double>{0.1, 0.2, 0.30000000000000004, 2.25}));
    EXPECT_EQ(pops[1].population, "inh");
    EXPECT_EQ(pops[1].node_ids, (std::vector<std::uint64_t>{7}));
    EXPECT_EQ(pops[1].timestamps_ms, (std::vector<double>{1.5}));
}

TEST_F(sonata_spikes_test, layout_types_and_attributes_match_sonata_via_raw_hdf5) {
    const auto file = dir / "attrs.h5";
    {
        vs::sonata_spike_writer w(file);
        auto p = w.add_population("v1");
        w.append(p, std::vector<std::uint64_t>{5, 6}, std::vector<double>{1.0, 2.0});
    }
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    hid_t spikes = H5Gopen2(f, "/spikes", H5P_DEFAULT);
    std::uint32_t magic = 0;
    hid_t a = H5Aopen(spikes, "magic", H5P_DEFAULT);
    ASSERT_GE(H5Aread(a, H5T_NATIVE_UINT32, &magic), 0);
    H5Aclose(a);
    EXPECT_EQ(magic, 0x0A7Au);
    std::uint32_t version[2] = {9, 9};
    a = H5Aopen(spikes, "version", H5P_DEFAULT);
    hid_t vspace = H5Aget_space(a);
    EXPECT_EQ(H5Sget_simple_extent_npoints(vspace), 2);
    ASSERT_GE(H5Aread(a, H5T_NATIVE_UINT32, version), 0);
    H5Sclose(vspace);
    H5Aclose(a);
    EXPECT_EQ(version[0], 0u);
    EXPECT_EQ(version[1], 1u);
    H5Gclose(spikes);

    EXPECT_EQ(raw_sorting_name(f, "/spikes/v1"), "by_time");

    hid_t ids = H5Dopen2(f, "/spikes/v1/node_ids", H5P_DEFAULT);
    hid_t ts = H5Dopen2(f, "/spikes/v1/timestamps", H5P_DEFAULT);
    hid_t ids_type = H5Dget_type(ids), ts_type = H5Dget_type(ts);
    EXPECT_GT(H5Tequal(ids_type, H5T_STD_U64LE), 0);
    EXPECT_GT(H5Tequal(ts_type, H5T_IEEE_F64LE), 0);
    EXPECT_EQ(raw_read_string_attribute(ts, "units"), "ms");
    hid_t plist = H5Dget_create_plist(ts);
    EXPECT_EQ(H5Pget_layout(plist), H5D_CHUNKED);
    hid_t space = H5Dget_space(ts);
    hsize_t dims[1], max_dims[1];
    H5Sget_simple_extent_dims(space, dims, max_dims);
    EXPECT_EQ(dims[0], 2u);
    EXPECT_EQ(max_dims[0], H5S_UNLIMITED);
    H5Sclose(space);
    H5Pclose(plist);
    H5Tclose(ids_type);
    H5Tclose(ts_type);
    H5Dclose(ids);
    H5Dclose(ts);
    EXPECT_EQ(raw_read_u64(f, "/spikes/v1/node_ids"), (std::vector<std::uint64_t>{5, 6}));
    EXPECT_EQ(raw_read_f64(f, "/spikes/v1/timestamps"), (std::vector<double>{1.0, 2.0}));
    H5Fclose(f);
}

TEST_F(sonata_spikes_test, out_of_order_spikes_turn_sorting_to_none) {
    const auto file = dir / "unsorted.h5";
    {
        vs::sonata_spike_writer w(file);
        auto p = w.add_population("p");
        w.append(p, std::vector<std::uint64_t>{1, 2}, std::vector<double>{2.0, 1.0});
    }
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(raw_sorting_name(f, "/spikes/p"), "none");
    H5Fclose(f);
}

TEST_F(sonata_spikes_test, empty_population_reads_back_empty) {
    const auto file = dir / "empty.h5";
    {
        vs::sonata_spike_writer w(file);
        w.add_population("silent");
        auto p = w.add_population("busy");
        w.append(p, std::vector<std::uint64_t>{}, std::vector<double>{});
        w.append(p, std::vector<std::uint64_t>{0}, std::vector<double>{0.0});
    }
    auto pops = vs::read_sonata_spikes(file);
    ASSERT_EQ(pops.size(), 2u);
    EXPECT_EQ(pops[0].population, "silent");
    EXPECT_TRUE(pops[0].node_ids.empty());
    EXPECT_TRUE(pops[0].timestamps_ms.empty());
    EXPECT_EQ(pops[1].node_ids.size(), 1u);
}

TEST_F(sonata_spikes_test, many_small_batches_beyond_chunk_size_round_trip) {
    const auto file = dir / "batches.h5";
    const std::size_t total = 3 * volley::snn::detail::spike_chunk_size + 123;
    std::vector<std::uint64_t> ids(total);
    std::vector<double> t(total);
    for (std::size_t i = 0; i < total; ++i) {
        ids[i] = (i * 7919) % 1000;
        t[i] = 0.1 * static_cast<double>(i);
    }
    {
        vs::sonata_spike_writer w(file);
        auto p = w.add_population("p");
        for (std::size_t i = 0; i < total; i += 7) {
            const std::size_t n = std::min<std::size_t>(7, total - i);
            w.append(p, std::span(ids).subspan(i, n), std::span(t).subspan(i, n));
            if (i % 7000 == 0) w.flush();
        }
    }
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(raw_read_u64(f, "/spikes/p/node_ids"), ids);
    EXPECT_EQ(raw_read_f64(f, "/spikes/p/timestamps"), t);
    H5Fclose(f);
}

namespace {

// Forks a child that writes `flushed` spikes, flushes, appends `unflushed` more and then dies
// with _exit(1) (no destructor, no H5Fclose). Checks in the parent, with the plain HDF5 C API,
// that the file opens and holds at least every flushed spike.
void check_crash_after_flush(const std::filesystem::path& file, std::size_t flushed,
                             std::size_t unflushed) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        try {
            vs::sonata_spike_writer w(file);
            auto p = w.add_population("exc");
            for (std::size_t i = 0; i < flushed; ++i)
                w.append(p, std::vector<std::uint64_t>{i}, std::vector<double>{double(i)});
            w.flush();
            for (std::size_t i = flushed; i < flushed + unflushed; ++i)
                w.append(p, std::vector<std::uint64_t>{i}, std::vector<double>{double(i)});
            _exit(1);
        } catch (...) {
            _exit(2);
        }
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 1) << "the child failed before the simulated crash";

    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "plain HDF5 cannot open the unclosed file";
    auto ids = raw_read_u64(f, "/spikes/exc/node_ids");
    auto t = raw_read_f64(f, "/spikes/exc/timestamps");
    H5Fclose(f);
    ASSERT_GE(ids.size(), flushed);
    ASSERT_EQ(ids.size(), t.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        ASSERT_EQ(ids[i], i);
        ASSERT_EQ(t[i], double(i));
    }
    EXPECT_GE(vs::read_sonata_spikes(file).at(0).node_ids.size(), flushed);
}

}  // namespace

TEST_F(sonata_spikes_test, flushed_file_survives_a_crash_before_close) {
    check_crash_after_flush(dir / "crash.h5", 1000, 500);
}

TEST_F(sonata_spikes_test, flushed_file_survives_a_crash_after_unflushed_chunk_writes) {
    // More than a chunk after the flush, so buffered spikes reach the file before the crash.
    check_crash_after_flush(dir / "crash_spill.h5", 1000,
                            3 * volley::snn::detail::spike_chunk_size);
}

TEST_F(sonata_spikes_test, bad_paths_throw_io_error_naming_the_file) {
    const auto missing_dir = dir / "no_such_dir" / "out.h5";
    try {
        vs::sonata_spike_writer w(missing_dir);
        FAIL() << "expected io_error";
    } catch (const volley::io_error& e) {
        EXPECT_EQ(e.file(), missing_dir.string());
    }
    EXPECT_THROW(vs::read_sonata_spikes(dir / "absent.h5"), volley::io_error);
    EXPECT_THROW(vs::read_sonata_spikes(dir), volley::io_error);
}

TEST_F(sonata_spikes_test, non_sonata_hdf5_file_names_the_missing_object) {
    const auto file = dir / "other.h5";
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "/weights", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Fclose(f);
    try {
        vs::read_sonata_spikes(file);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.file(), file.string());
        EXPECT_EQ(e.location(), "/spikes");
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos);
    }

    const auto partial = dir / "partial.h5";
    f = H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "/spikes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(H5Gcreate2(f, "/spikes/exc", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t n = 2;
    hid_t space = H5Screate_simple(1, &n, nullptr);
    H5Dclose(H5Dcreate2(f, "/spikes/exc/node_ids", H5T_STD_U64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT));
    H5Sclose(space);
    H5Fclose(f);
    try {
        vs::read_sonata_spikes(partial);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/spikes/exc/timestamps");
    }
}

// A damaged extent: node_ids and timestamps declare 2^30 spikes (8 GiB each) but store none.
// The reader checks the shape against what the file stores before it allocates (it resized two
// vectors to the shape before, and a process without that much memory died).
TEST_F(sonata_spikes_test, extent_larger_than_the_file_is_refused_before_allocating) {
    const auto file = dir / "huge_extent.h5";
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "/spikes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(H5Gcreate2(f, "/spikes/exc", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t n = hsize_t{1} << 30, chunk = 1024;
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t layout = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(layout, 1, &chunk);
    H5Dclose(H5Dcreate2(f, "/spikes/exc/node_ids", H5T_STD_U64LE, space, H5P_DEFAULT, layout, H5P_DEFAULT));
    H5Dclose(H5Dcreate2(f, "/spikes/exc/timestamps", H5T_IEEE_F64LE, space, H5P_DEFAULT, layout, H5P_DEFAULT));
    H5Pclose(layout);
    H5Sclose(space);
    H5Fclose(f);
    try {
        vs::read_sonata_spikes(file);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/spikes/exc/node_ids");
        EXPECT_NE(std::string(e.what()).find("the shape (1073741824)"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("stores 0 bytes"), std::string::npos) << e.what();
    }
}

TEST_F(sonata_spikes_test, non_hdf5_file_is_a_file_format_error) {
    const auto file = dir / "text.h5";
    std::ofstream(file) << "population,node_id,time_ms\nexc,1,0.5\n";
    try {
        vs::read_sonata_spikes(file);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.file(), file.string());
        EXPECT_NE(std::string(e.what()).find("not an HDF5 file"), std::string::npos);
    }
}

TEST_F(sonata_spikes_test, invalid_appends_and_names_are_rejected) {
    vs::sonata_spike_writer w(dir / "bad.h5");
    auto p = w.add_population("exc");
    EXPECT_THROW(w.add_population("exc"), volley::invalid_parameter);
    EXPECT_THROW(w.add_population(""), volley::invalid_parameter);
    EXPECT_THROW(w.add_population("a/b"), volley::invalid_parameter);
    EXPECT_THROW(w.append(p, std::vector<std::uint64_t>{1, 2}, std::vector<double>{1.0}),
                 volley::invalid_parameter);
    EXPECT_THROW(w.append(p, std::vector<std::uint64_t>{1},
                          std::vector<double>{std::numeric_limits<double>::quiet_NaN()}),
                 volley::invalid_parameter);
    EXPECT_THROW(w.append(5, std::vector<std::uint64_t>{1}, std::vector<double>{1.0}),
                 volley::invalid_parameter);
    w.close();
    EXPECT_THROW(w.append(p, std::vector<std::uint64_t>{1}, std::vector<double>{1.0}),
                 volley::io_error);
}

TEST_F(sonata_spikes_test, moved_writer_keeps_the_open_file) {
    const auto file = dir / "moved.h5";
    vs::sonata_spike_writer a(file);
    auto p = a.add_population("p");
    vs::sonata_spike_writer b(std::move(a));
    b.append(p, std::vector<std::uint64_t>{42}, std::vector<double>{4.2});
    vs::sonata_spike_writer c(dir / "other.h5");
    c = std::move(b);
    c.close();
    auto pops = vs::read_sonata_spikes(file);
    ASSERT_EQ(pops.size(), 1u);
    EXPECT_EQ(pops[0].node_ids, (std::vector<std::uint64_t>{42}));
}
