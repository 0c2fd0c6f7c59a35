// Inputs that the libFuzzer harnesses of tests/fuzz found to crash a loader (an uncaught
// exception, a sanitizer report), kept as they were found under tests/data/fuzz-regressions/
// (tests/fuzz/README.md): each is now refused with a typed error naming the file and what is wrong.
#include "../support/snn_test_support.hpp"

#include <volley/error.hpp>
#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using volley::snn::testing::throws_naming;

const std::filesystem::path regressions = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "fuzz-regressions";

// fuzz_network_json: "v_rest_mv": -491e308 made nlohmann::json throw out_of_range (number
// overflow), which parse_network_json did not catch: the process aborted.
TEST(FuzzRegressions, NetworkJsonNumberPastDoubleRangeIsAFormatError) {
    const auto file = regressions / "network_json" / "number_overflow.json";
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::snn::load_network_json(file); },
        {file.string(), "malformed JSON", "number overflow", "-491e308"}));
}

// The same number in a TENNLab network file: not a fuzzer find, the same catch fixed in
// load_tennlab_network, which also caught only parse_error.
TEST(FuzzRegressions, TennlabJsonNumberPastDoubleRangeIsATennlabError) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("volley_fuzz_regression_" + std::to_string(::getpid()) + ".json");
    std::ofstream(file) << R"({"Properties": {}, "Nodes": [{"id": 0, "values": [-491e308]}]})";
    EXPECT_TRUE(throws_naming<volley::hw::tennlab_error>(
        [&] { volley::hw::load_tennlab_network(file.string()); },
        {file.string(), "malformed JSON", "number overflow"}));
    std::filesystem::remove(file);
}

// fuzz_nir: a flipped byte in a dataset's dataspace of two_lif_neurons.nir declared a shape of
// more elements than a vector can hold; read_nir_array resized a vector to it and
// std::length_error escaped. Now the shape is checked against what the file stores first.
TEST(FuzzRegressions, NirDatasetLargerThanTheFileIsRefusedBeforeAllocating) {
    const auto file = regressions / "nir" / "shape_larger_than_file.nir";
    EXPECT_TRUE(throws_naming<volley::file_format_error>([&] { volley::snn::read_nir(file); },
                                                         {file.string(), "the shape ("}));
}

}  // namespace
