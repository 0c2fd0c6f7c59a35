// The IDX reader and the Fashion-MNIST loader: good files, corrupt headers, missing files.

#include <volley/convert/idx_file.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/error.hpp>

#include "io_test_dir.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <set>

namespace vc = volley::convert;
using idx_reader = volley::test::io_test;

namespace {

void write_gz(const std::filesystem::path& file, const std::vector<unsigned char>& bytes) {
    gzFile f = gzopen(file.string().c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
              static_cast<int>(bytes.size()));
    gzclose(f);
}

std::vector<unsigned char> idx_bytes(unsigned char type, std::vector<std::uint32_t> dims,
                                     std::size_t values) {
    std::vector<unsigned char> b{0, 0, type, static_cast<unsigned char>(dims.size())};
    for (auto d : dims)
        for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(d >> s));
    for (std::size_t i = 0; i < values; ++i) b.push_back(static_cast<unsigned char>(i % 10));
    return b;
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const volley::error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_F(idx_reader, ReadsDimensionsAndValues) {
    write_gz(dir / "a.gz", idx_bytes(0x08, {3, 2, 2}, 12));
    const auto a = vc::read_idx(dir / "a.gz");
    EXPECT_EQ(a.dims, (std::vector<std::uint32_t>{3, 2, 2}));
    ASSERT_EQ(a.values.size(), 12u);
    EXPECT_EQ(a.values[11], 1);
}

TEST_F(idx_reader, MissingFileTellsTheUserToRunSetup) {
    const auto msg = message_of([&] { vc::read_idx(dir / "nope-idx1-ubyte.gz"); });
    EXPECT_NE(msg.find("nope-idx1-ubyte.gz"), std::string::npos) << msg;
    EXPECT_NE(msg.find("scripts/setup"), std::string::npos) << msg;
    const auto msg2 = message_of([&] { vc::load_fashion_mnist(dir, "train"); });
    EXPECT_NE(msg2.find("train-images-idx3-ubyte.gz"), std::string::npos) << msg2;
    EXPECT_NE(msg2.find("scripts/setup"), std::string::npos) << msg2;
}

TEST_F(idx_reader, CorruptHeadersAreFileFormatErrorsNamingTheFile) {
    auto bad_magic = idx_bytes(0x08, {4}, 4);
    bad_magic[0] = 0x1f;
    write_gz(dir / "magic.gz", bad_magic);
    EXPECT_THROW(vc::read_idx(dir / "magic.gz"), volley::file_format_error);
    EXPECT_NE(message_of([&] { vc::read_idx(dir / "magic.gz"); }).find("magic.gz"), std::string::npos);

    write_gz(dir / "type.gz", idx_bytes(0x0d, {4}, 16));
    EXPECT_NE(message_of([&] { vc::read_idx(dir / "type.gz"); }).find("element type 13"),
              std::string::npos);

    write_gz(dir / "short.gz", idx_bytes(0x08, {10, 28, 28}, 100));
    const auto msg = message_of([&] { vc::read_idx(dir / "short.gz"); });
    EXPECT_NE(msg.find("short.gz"), std::string::npos) << msg;
    EXPECT_NE(msg.find("7840"), std::string::npos) << msg;

    write_gz(dir / "header.gz", {0, 0, 8});
    EXPECT_THROW(vc::read_idx(dir / "header.gz"), volley::file_format_error);
}

TEST_F(idx_reader, LabelCountMustMatchImageCount) {
    write_gz(dir / "t10k-images-idx3-ubyte.gz", idx_bytes(0x08, {3, 2, 2}, 12));
    write_gz(dir / "t10k-labels-idx1-ubyte.gz", idx_bytes(0x08, {4}, 4));
    const auto msg = message_of([&] { vc::load_fashion_mnist(dir, "test"); });
    EXPECT_NE(msg.find("4 labels for 3 images"), std::string::npos) << msg;
}

TEST_F(idx_reader, EpochOrderIsASeededPermutation) {
    const auto a = vc::epoch_order(1000, 7, 0), b = vc::epoch_order(1000, 7, 0);
    const auto c = vc::epoch_order(1000, 7, 1);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(std::set<std::uint32_t>(a.begin(), a.end()).size(), 1000u);
    EXPECT_EQ(*std::max_element(a.begin(), a.end()), 999u);
}

TEST(FashionMnist, LoadsTheDebianPackage) {
    const std::filesystem::path d{vc::default_fashion_mnist_dir};
    if (!std::filesystem::exists(d)) GTEST_SKIP() << d << " is absent (run scripts/setup)";
    const auto test = vc::load_fashion_mnist(d, "test");
    ASSERT_EQ(test.count(), 10000u);
    EXPECT_EQ(test.image_size(), 784u);
    EXPECT_EQ(test.labels[0], 9);  // the first test image is an ankle boot
    const auto [lo, hi] = std::minmax_element(test.pixels.begin(), test.pixels.end());
    EXPECT_EQ(*lo, 0.0f);
    EXPECT_EQ(*hi, 1.0f);
}
