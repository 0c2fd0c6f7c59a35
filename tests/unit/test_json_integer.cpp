// json_integer<T>: every integer JSON can hold, converted only within T's range (json_integer.hpp).
#include <volley/json_integer.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using volley::json_integer;
using nlohmann::json;

TEST(JsonInteger, ValuesAtTheBoundsOfTheTypeAreKeptAndOneBeyondIsRefused) {
    EXPECT_EQ(json_integer<int>(json(2147483647)), 2147483647);
    EXPECT_EQ(json_integer<int>(json(-2147483648LL)), -2147483647 - 1);
    EXPECT_FALSE(json_integer<int>(json(2147483648LL)));
    EXPECT_FALSE(json_integer<int>(json(-2147483649LL)));
    EXPECT_EQ(json_integer<std::uint16_t>(json(65535)), 65535);
    EXPECT_FALSE(json_integer<std::uint16_t>(json(65536)));
    EXPECT_FALSE(json_integer<std::uint16_t>(json(-1)));
    EXPECT_EQ(json_integer<std::uint64_t>(json(std::numeric_limits<std::uint64_t>::max())),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_FALSE(json_integer<std::int64_t>(json(std::numeric_limits<std::uint64_t>::max())));
    EXPECT_EQ(json_integer<std::int64_t>(json(std::numeric_limits<std::int64_t>::min())),
              std::numeric_limits<std::int64_t>::min());
}

TEST(JsonInteger, WholeDoublesInRangeAreIntegersAndFractionsOrOverflowsAreNot) {
    EXPECT_EQ(json_integer<int>(json(3.0)), 3);
    EXPECT_EQ(json_integer<int>(json(-2147483648.0)), -2147483647 - 1);
    EXPECT_FALSE(json_integer<int>(json(2147483648.0)));
    EXPECT_FALSE(json_integer<int>(json(2.5)));
    EXPECT_FALSE(json_integer<int>(json(1e100)));
    EXPECT_FALSE(json_integer<std::int64_t>(json(9223372036854775808.0)));  // 2^63
    EXPECT_EQ(json_integer<std::int64_t>(json(-9223372036854775808.0)),
              std::numeric_limits<std::int64_t>::min());
    EXPECT_FALSE(json_integer<std::uint64_t>(json(18446744073709551616.0)));  // 2^64
    EXPECT_FALSE(json_integer<std::uint32_t>(json(-0.5)));
}

TEST(JsonInteger, ValuesThatAreNotNumbersAreRefused) {
    EXPECT_FALSE(json_integer<int>(json("7")));
    EXPECT_FALSE(json_integer<int>(json(true)));
    EXPECT_FALSE(json_integer<int>(json(nullptr)));
    EXPECT_FALSE(json_integer<int>(json::array({1})));
}
