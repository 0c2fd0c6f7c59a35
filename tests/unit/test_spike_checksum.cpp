// spike_checksum: the order of recording does not matter, the encoding is the documented one.

#include <volley/snn/spike_checksum.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace vs = volley::snn;

using spike_list = std::vector<std::pair<std::uint32_t, std::int64_t>>;

TEST(spike_checksum, matches_a_value_computed_with_printf_and_sha256sum) {
    // The pairs sort to (1, 5), (2, -1); the value below is the output of
    //   printf "$A$B" | sha256sum
    // with A='\x01\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00'
    //  and B='\x02\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff'.
    EXPECT_EQ(vs::spike_checksum({{2, -1}, {1, 5}}),
              "fc0474ef9a243c7aa9dddb8ca1bf8825bba1867872aed513a79bf79488ea87ac");
}

TEST(spike_checksum, empty_raster_is_the_hash_of_the_empty_message) {
    EXPECT_EQ(vs::spike_checksum({}),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(spike_checksum, does_not_depend_on_recording_order_but_on_every_spike) {
    spike_list spikes;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 5000; ++i)
        spikes.emplace_back(static_cast<std::uint32_t>(rng() % 4000),
                            static_cast<std::int64_t>(rng() % 100000));
    const std::string reference = vs::spike_checksum(spikes);
    auto shuffled = spikes;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    EXPECT_EQ(vs::spike_checksum(shuffled), reference);
    auto moved = spikes;
    moved[1234].second += 1;
    EXPECT_NE(vs::spike_checksum(moved), reference);
    auto dropped = spikes;
    dropped.pop_back();
    EXPECT_NE(vs::spike_checksum(dropped), reference);
}

TEST(spike_checksum, matches_sha256sum_of_independently_encoded_bytes) {
    if (std::system("command -v sha256sum > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "sha256sum is not installed";
    spike_list spikes{{4000000000u, 1}, {0, -9000000000LL}, {7, 123456789012LL}, {7, 3}};
    spike_list sorted{{0, -9000000000LL}, {7, 3}, {7, 123456789012LL}, {4000000000u, 1}};
    const auto file = std::filesystem::temp_directory_path() /
                      ("volley_spike_checksum_" + std::to_string(::getpid()) + ".bin");
    {
        std::ofstream out(file, std::ios::binary);
        for (const auto& [id, step] : sorted) {
            const auto u = static_cast<std::uint64_t>(step);
            for (int i = 0; i < 8; ++i) out.put(static_cast<char>((std::uint64_t{id} >> (8 * i))));
            for (int i = 0; i < 8; ++i) out.put(static_cast<char>(u >> (8 * i)));
        }
    }
    FILE* pipe = popen(("sha256sum '" + file.string() + "'").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char expected[65] = {};
    ASSERT_EQ(std::fread(expected, 1, 64, pipe), 64u);
    pclose(pipe);
    std::filesystem::remove(file);
    EXPECT_EQ(vs::spike_checksum(spikes), std::string(expected));
}
