// Deeply nested JSON (tests/reliability, docs/errors.md): a file of 60,000 nested brackets
// once overflowed the stack while its error was formatted. Every JSON reader refuses nesting
// deeper than volley::max_json_depth before parsing, naming the file; the bound itself is
// checked against documents of known depth, with brackets inside strings not counted.

#include "../support/cli_runner.hpp"

#include <volley/json_text.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using volley::testing::run_volley_in;

/// A document nested `depth` levels: [[[...1...]]] with objects every other level.
std::string nested(std::size_t depth) {
    std::string open, close;
    for (std::size_t i = 0; i < depth; ++i) {
        if (i % 2) {
            open += "{\"k\":";
            close += "}";
        } else {
            open += "[";
            close += "]";
        }
    }
    return open + "1" + std::string(close.rbegin(), close.rend());
}

TEST(DeepJson, TheBoundIsTheDepthOfTheDocument) {
    EXPECT_NO_THROW(volley::parse_json_text(nested(volley::max_json_depth), "ok.json"));
    try {
        volley::parse_json_text(nested(volley::max_json_depth + 1), "deep.json");
        FAIL() << "nesting one level past the bound was accepted";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.file(), "deep.json");
        EXPECT_NE(std::string(e.what()).find("nested deeper than 256"), std::string::npos) << e.what();
    }
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    const std::string in_strings = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
    EXPECT_EQ(volley::json_too_deep_at(in_strings), std::string::npos);
    EXPECT_EQ(volley::parse_json_text(in_strings, "s.json")[0].get<std::string>().size(), 2001u);
    // The offset is that of the first bracket past the bound.
    EXPECT_EQ(volley::json_too_deep_at(std::string(10, '['), 3), 3u);
    // Malformed text is a file_format_error naming the file, as before.
    EXPECT_THROW(volley::parse_json_text("{\"a\": }", "bad.json"), volley::file_format_error);
}

class DeepJsonCli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() /
              ("volley_deep_json_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "deep.json") << nested(60'000);
        std::ofstream(dir / "deep_network.json") << "{\"format\": \"volley-network\", \"populations\": " << nested(60'000) << "}";
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    /// `volley ARGS` exits 2 (an input error), naming `file` and the bound.
    void expect_refused(const std::string& args, const std::string& file) {
        const auto r = run_volley_in(dir, args);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(file), std::string::npos) << args << "\n" << r.err;
        EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << args << "\n" << r.err;
    }
    std::filesystem::path dir;
};

TEST_F(DeepJsonCli, EveryReaderRefusesItNamingTheFile) {
    expect_refused("run deep_network.json --duration 1", "deep_network.json");
    expect_refused("info deep_network.json", "deep_network.json");
    expect_refused("run deep.json --duration 1", "deep.json");
    expect_refused("evolve --task count --generations 1 --out o.json --config deep.json", "deep.json");
    expect_refused("control cartpole --network deep.json", "deep.json");
    expect_refused("danna run deep.json --cycles 5", "deep.json");
}

}  // namespace
