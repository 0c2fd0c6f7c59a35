// Damaged and hostile HDF5 input (docs/errors.md, "Damaged and hostile HDF5 files"): NIR files
// that crash libhdf5 when read, or make it run forever (tests/data/nir/damaged), are refused with
// a file_format_error naming the file, by the library's reader and by `volley nir info` and `volley
// run`, and the process that asked lives on; intact files still load.

#include "../support/cli_runner.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace vs = volley::snn;
using volley::testing::run_volley_in;

const std::filesystem::path data_dir = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "nir";

/// The damaged files whose name starts with `kind`: "two_lif_flip" crash libhdf5,
/// "two_lif_loop" make it run forever.
std::vector<std::filesystem::path> damaged_files(const std::string& kind) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(data_dir / "damaged"))
        if (e.path().extension() == ".nir" && e.path().filename().string().starts_with(kind))
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool built_with_asan = true;
#else
constexpr bool built_with_asan = false;
#endif

std::filesystem::path work_dir() {
    const auto d = std::filesystem::temp_directory_path() /
                   ("volley_hostile_hdf5_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
}

TEST(HostileHdf5, AFileThatCrashesLibhdf5IsAFileFormatErrorNamingIt) {
    const auto files = damaged_files("two_lif_flip");
    ASSERT_EQ(files.size(), 2u);
    for (const auto& f : files) {
        try {
            (void)vs::read_nir(f);
            ADD_FAILURE() << f << " was read";
        } catch (const volley::file_format_error& e) {
            EXPECT_EQ(e.file(), f.string());
            // A plain build dies of SIGSEGV in the child; under AddressSanitizer the child
            // reports the bad access and exits with status 1 first. Either way the file is
            // refused before this process reads it.
            const std::string what = e.what();
            EXPECT_TRUE(what.find("crashed libhdf5 (SIGSEGV") != std::string::npos ||
                        (built_with_asan && what.find("failed (exit status 1)") != std::string::npos))
                << what;
        }
    }
    // The intact file they were made from passes and loads (LIF -> Linear -> LIF, with input and
    // output).
    EXPECT_NO_THROW(vs::detail::preflight_hdf5_file(data_dir / "two_lif.nir"));
    EXPECT_GE(vs::read_nir(data_dir / "two_lif.nir").nodes.size(), 3u);
}

// The time limit of the child is 10 s for files this small; the tests shorten it to 1 s.
TEST(HostileHdf5, AFileThatMakesLibhdf5RunForeverIsRefusedAfterTheTimeLimit) {
    ::setenv("VOLLEY_HDF5_PREFLIGHT_SECONDS", "1", 1);
    const auto files = damaged_files("two_lif_loop");
    ASSERT_EQ(files.size(), 2u);
    try {
        (void)vs::read_nir(files[0]);
        ADD_FAILURE() << files[0] << " was read";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.file(), files[0].string());
        EXPECT_NE(std::string(e.what()).find("kept libhdf5 busy for more than 1 s"),
                  std::string::npos)
            << e.what();
    }
    const auto r = run_volley_in(work_dir(), "nir info '" + files[1].string() + "'");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(files[1].string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("kept libhdf5 busy"), std::string::npos) << r.err;
    ::unsetenv("VOLLEY_HDF5_PREFLIGHT_SECONDS");
}

TEST(HostileHdf5, TheCommandLineReportsItAndExitsWithAnInputError) {
    const auto dir = work_dir();
    for (const auto& f : damaged_files("two_lif_flip")) {
        for (const std::string cmd : {"nir info ", "run "}) {
            const auto r = run_volley_in(dir, cmd + "'" + f.string() + "'");
            EXPECT_EQ(r.code, 2) << cmd << f << ": " << r.err;
            EXPECT_NE(r.err.find(f.string()), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("damaged or hostile HDF5 file"), std::string::npos) << r.err;
        }
    }
}

}  // namespace
