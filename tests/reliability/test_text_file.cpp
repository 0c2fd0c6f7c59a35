// Whole text files (volley/text_file.hpp: JSON, SVG plots, TENNLab networks, DANNA programmes,
// network files): on a full disk (a file-size limit, in a child process) the write is an
// io_error naming the file, no temporary file is left, and a file there before is kept byte for
// byte; otherwise the file holds exactly the text.

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(TextFile, AFullDiskKeepsThePreviousFileAndLeavesNoTemporaryFile) {
    const auto dir = fs::temp_directory_path() / ("volley_text_file_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto file = dir / "plot.svg";
    std::ofstream(file) << "a file that was there before";
    const std::string big(100000, 'x');
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{20000, 20000};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            volley::write_text_file(file, big, "SVG file");
        } catch (const volley::io_error& e) {
            const std::string what = e.what();
            // The file, its size, and the space free there (a file-size limit, not a full disk).
            _exit(what.find("plot.svg") != std::string::npos && what.find("100000 bytes") != std::string::npos &&
                          what.find("free on its file system") != std::string::npos
                      ? 2
                      : 4);
        } catch (...) {
            _exit(3);
        }
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the writer died instead of failing";
    EXPECT_EQ(WEXITSTATUS(status), 2) << "2: an io_error naming the file, its size and the free space";
    EXPECT_EQ(read_all(file), "a file that was there before");
    EXPECT_FALSE(fs::exists(dir / "plot.svg.tmp"));

    volley::write_text_file(file, big, "SVG file");
    EXPECT_EQ(read_all(file), big);
    EXPECT_FALSE(fs::exists(dir / "plot.svg.tmp"));
    EXPECT_THROW(volley::write_text_file(dir / "no" / "such" / "dir.svg", "x", "SVG file"), volley::io_error);
    fs::remove_all(dir);
}

}  // namespace
