// Whole text files (volley/text_file.hpp: JSON, SVG plots, TENNLab networks, DANNA programmes,
// network files): on a full disk (a file-size limit, in a child process) the write is an
// io_error naming the file, no temporary file is left, and a file there before is kept byte for
// byte; otherwise the file holds exactly the text.

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include "../support/file_size_limit.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

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
    // The error names the file, its size, and the space free there (a file-size limit, not a
    // full disk).
    EXPECT_EQ(volley::testing::write_under_file_size_limit(
                  20000, [&] { volley::write_text_file(file, big, "SVG file"); },
                  {"plot.svg", "100000 bytes", "free on its file system"}),
              2)
        << "0: written past the limit; -1: died; 3, 4: another error";
    EXPECT_EQ(read_all(file), "a file that was there before");
    EXPECT_FALSE(fs::exists(dir / "plot.svg.tmp"));

    volley::write_text_file(file, big, "SVG file");
    EXPECT_EQ(read_all(file), big);
    EXPECT_FALSE(fs::exists(dir / "plot.svg.tmp"));
    EXPECT_THROW(volley::write_text_file(dir / "no" / "such" / "dir.svg", "x", "SVG file"), volley::io_error);
    fs::remove_all(dir);
}

}  // namespace
