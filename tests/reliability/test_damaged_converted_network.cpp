// A converted network (`volley convert --out snn.h5`) with one changed byte (docs/errors.md,
// "Damaged and hostile HDF5 files"). Byte 1675 set to 0x10 (in the file of the find; here found
// from the attribute's name, 35 bytes after it) misstates the precision of the integer attribute
// 'input_population' (64 bits become 4,160): libhdf5 smashed its stack converting it ("stack smashing detected", SIGABRT)
// in `volley info` and `volley run`, after the first preflight child, which only walked the file,
// had read it without a crash by another path. Now the process that asks reads only the clean
// copy a child makes, and every such file is a typed error naming it, or reads: never a signal.

#include "../support/cli_runner.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using volley::testing::run_volley_in;
namespace fs = std::filesystem;

const fs::path model = fs::path(VOLLEY_TEST_DATA_DIR) / "convert" / "fmnist_small_torch.h5";

struct DamagedConvertedNetwork : ::testing::Test {
    fs::path dir;
    std::vector<char> bytes;

    void SetUp() override {
        // The converted file's layout (and so its byte 1675) is that of `volley convert` on the
        // Fashion-MNIST package's images, as the find was made.
        if (!fs::exists("/usr/share/datasets/fashion-mnist"))
            GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
        dir = fs::temp_directory_path() / ("volley_damaged_snn_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        const auto r = run_volley_in(dir, "convert '" + model.string() +
                                              "' --limit 20 --timesteps 8 --norm-images 100 --out snn.h5");
        ASSERT_EQ(r.code, 0) << r.err;
        std::ifstream in(dir / "snn.h5", std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
        ASSERT_GT(bytes.size(), 2000u);
    }
    void TearDown() override {
        if (!dir.empty()) fs::remove_all(dir);
    }

    /// Where the precision of attribute 'input_population''s integer type is stored: its high
    /// byte, 35 bytes after the name (name, padding, then the datatype message).
    std::size_t precision_byte() const {
        const std::string name = "input_population";
        const auto at = std::search(bytes.begin(), bytes.end(), name.begin(), name.end());
        EXPECT_NE(at, bytes.end()) << "no attribute 'input_population' in the converted file";
        const auto offset = static_cast<std::size_t>(at - bytes.begin()) + 35;
        EXPECT_EQ(bytes.at(offset - 1), 0x40) << "not a 64-bit precision field";  // 64 bits, little-endian
        EXPECT_EQ(bytes.at(offset), 0x00);
        return offset;
    }

    /// The converted file with byte `offset` set to `value`, as damaged.h5.
    void write_damaged(std::size_t offset, char value) const {
        auto b = bytes;
        b[offset] = value;
        std::ofstream(dir / "damaged.h5", std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
    }
};

TEST_F(DamagedConvertedNetwork, TheByteThatSmashedLibhdf5sStackIsATypedError) {
    write_damaged(precision_byte(), 0x10);
    for (const std::string cmd : {"info", "run --duration 1"}) {
        const auto r = run_volley_in(dir, cmd + " damaged.h5");
        EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
        EXPECT_NE(r.err.find("damaged.h5"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("stack smashing"), std::string::npos) << r.err;
    }
}

// The bytes around it, each changed the same way: `volley info` exits 0 or 2, never by a signal
// (a signal reads as -1 here).
TEST_F(DamagedConvertedNetwork, NoChangedByteOfTheMetadataKillsTheProcess) {
    const std::size_t at = precision_byte();  // 1675 in the file of the find
    for (std::size_t offset = at - 75; offset < at + 85; ++offset) {
        write_damaged(offset, static_cast<char>(bytes[offset] ^ 0x10));
        const auto r = run_volley_in(dir, "info damaged.h5");
        EXPECT_TRUE(r.code == 0 || r.code == 2) << "byte " << offset << ": exit " << r.code << " " << r.err;
    }
}

}  // namespace
