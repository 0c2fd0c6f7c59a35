// SHA-256 against the FIPS 180-2/180-4 example vectors and, where the tool exists, against
// coreutils' sha256sum for message lengths around the padding boundaries.

#include <volley/snn/sha256.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using volley::snn::detail::sha256;

namespace {

std::string hash_of(const std::string& message) {
    sha256 h;
    h.update(message);
    return h.finish_hex();
}

}  // namespace

TEST(sha256, fips_vector_abc) {
    EXPECT_EQ(hash_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(sha256, fips_vector_empty_message) {
    EXPECT_EQ(hash_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(sha256, fips_vector_448_bit_message) {
    EXPECT_EQ(hash_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(sha256, fips_vector_896_bit_message) {
    EXPECT_EQ(hash_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjk"
                      "lmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(sha256, fips_vector_one_million_a_in_uneven_pieces) {
    sha256 h;
    const std::string piece(997, 'a');
    std::size_t done = 0;
    while (done + piece.size() <= 1000000) {
        h.update(piece);
        done += piece.size();
    }
    h.update(std::string(1000000 - done, 'a'));
    EXPECT_EQ(h.finish_hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256, split_updates_equal_one_update) {
    std::string message;
    for (int i = 0; i < 300; ++i) message.push_back(static_cast<char>(i * 37 + 11));
    const std::string whole = hash_of(message);
    for (std::size_t cut : {1u, 55u, 56u, 63u, 64u, 65u, 128u, 299u}) {
        sha256 h;
        h.update(message.substr(0, cut));
        h.update(message.substr(cut));
        EXPECT_EQ(h.finish_hex(), whole) << "cut at " << cut;
    }
}

TEST(sha256, matches_coreutils_sha256sum_around_padding_boundaries) {
    if (std::system("command -v sha256sum > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "sha256sum is not installed";
    const auto file = std::filesystem::temp_directory_path() /
                      ("volley_sha256_" + std::to_string(::getpid()) + ".bin");
    std::string pattern;
    for (int i = 0; i < 200; ++i) pattern.push_back(static_cast<char>((i * 131 + 7) & 0xff));
    for (std::size_t length : {0u, 1u, 54u, 55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u, 200u}) {
        const std::string message = pattern.substr(0, length);
        {
            std::ofstream out(file, std::ios::binary);
            out << message;
        }
        const std::string command = "sha256sum '" + file.string() + "'";
        FILE* pipe = popen(command.c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        char expected[65] = {};
        ASSERT_EQ(std::fread(expected, 1, 64, pipe), 64u);
        pclose(pipe);
        EXPECT_EQ(hash_of(message), std::string(expected)) << "length " << length;
    }
    std::filesystem::remove(file);
}
