// Inputs that the libFuzzer harnesses of tests/fuzz found to crash a loader (an uncaught
// exception, a sanitizer report), kept as they were found under tests/data/fuzz-regressions/
// (tests/fuzz/README.md): each is now refused with a typed error naming the file and what is wrong.
#include "../support/snn_test_support.hpp"

#include <volley/error.hpp>
#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/processor_tool.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/idx_file.hpp>
#include <volley/snn/npz_file.hpp>
#include <volley/snn/sha256.hpp>

#include "checkpoint/checkpoint_file.hpp"
#include <volley/snn/network_json.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
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

// fuzz_nir: a flipped byte in a dataset's dataspace of snntorch_conv.nir declared a shape of
// more elements than a vector can hold; read_nir_array resized a vector to it and
// std::length_error escaped. Now the shape is checked against what the file stores first.
TEST(FuzzRegressions, NirDatasetLargerThanTheFileIsRefusedBeforeAllocating) {
    const auto file = regressions / "nir" / "shape_larger_than_file.nir";
    EXPECT_TRUE(throws_naming<volley::file_format_error>([&] { volley::snn::read_nir(file); },
                                                         {file.string(), "the shape ("}));
}

// fuzz_keras_h5 (2026-12-05): one changed byte made a Conv2D kernel's shape (3, 3103784963, 1, 3),
// 112 GB for 108 stored bytes; read_float_array allocated it before reading (ASan: out of memory;
// without ASan std::bad_alloc or a process killed for memory). Every reader that sizes a vector
// from a dataset's shape now goes through read_dataset_values, which checks the shape against
// what the file stores first (the Keras, Volley CNN and converted-SNN readers, SONATA spikes and
// reports, weight files). Since the clean copy (hdf5_clean_copy.cpp), the child that reads the
// file meets another object of it first that cannot be opened, and refuses the whole file there,
// naming that object; NirDatasetLargerThanTheFileIsRefusedBeforeAllocating above holds the shape
// check through the copy.
TEST(FuzzRegressions, KerasWeightShapeLargerThanTheFileIsRefusedBeforeAllocating) {
    const auto file = regressions / "keras_h5" / "weight_shape_larger_than_file.h5";
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::convert::read_keras_h5(file); },
        {file.string(), "/model_weights/hidden/hidden/bias:0", "damaged HDF5 file: it cannot be opened"}));
}

// fuzz_volley_cnn_h5: a damaged attribute message in a layer group overflowed a heap buffer
// inside libhdf5 (H5Aexists) in the reading process: the first preflight child, which only walked
// the file and let the reader read it again, had not reached the group. Now the reading process
// never parses the file: it reads the clean copy the child made, and the child refuses the
// damaged object it cannot copy (or, under ASan, its report does): either way a typed error
// naming the file, and the process lives.
TEST(FuzzRegressions, VolleyCnnH5WithADamagedAttributeIsATypedError) {
    const auto file = regressions / "volley_cnn_h5" / "attribute_overflow_after_damaged_object.h5";
    EXPECT_TRUE(throws_naming<volley::error>([&] { volley::convert::read_volley_h5(file); },
                                             {file.string()}));
}

// fuzz_volley_cnn_h5 (2026-12-07, with the copying child): a damaged layer attribute read as an
// integer list held 9.22e18; the reader converted it to int64 before checking it was in range
// (undefined behaviour: UBSan). Now it is a file_format_error naming the attribute and the value.
TEST(FuzzRegressions, VolleyCnnH5AttributeBeyondInt64IsAFormatError) {
    const auto file = regressions / "volley_cnn_h5" / "attribute_integer_beyond_int64.h5";
    EXPECT_TRUE(throws_naming<volley::file_format_error>([&] { volley::convert::read_volley_h5(file); },
                                                         {file.string(), "expected an integer (64-bit), found"}));
}

// fuzz_processor_tool: `M <file>` where the file named is a directory ("." here): libstdc++'s
// filebuf threw std::ios_base::failure from the JSON read, and the tool aborted. Now the tool
// prints the error, as for a file that cannot be opened, and runs on.
TEST(FuzzRegressions, ProcessorToolReadingADirectoryPrintsTheErrorAndGoesOn) {
    std::ifstream input(regressions / "processor_tool" / "make_from_directory.txt", std::ios::binary);
    std::stringstream commands;
    commands << input.rdbuf() << "\nM risp " << std::filesystem::temp_directory_path().string() << "\n";
    std::ostringstream out, err;
    volley::hw::processor_tool tool(commands, out, err);
    EXPECT_EQ(tool.run(), 0);
    EXPECT_NE(err.str().find(std::filesystem::temp_directory_path().string() + ": Is a directory"),
              std::string::npos)
        << err.str();
}

// fuzz_processor_tool (UBSan): `ML` with an inline network whose edge property has "size":
// 66666...661 (6.7e76): nlohmann's get<int>() converted the double to int, undefined behaviour.
// A property's type, index or size outside int's range is now a tennlab_error naming it.
TEST(FuzzRegressions, ProcessorToolPropertySizeOutsideIntIsAnError) {
    std::ifstream commands(regressions / "processor_tool" / "property_size_6e76.txt", std::ios::binary);
    std::ostringstream out, err;
    volley::hw::processor_tool tool(commands, out, err);
    EXPECT_EQ(tool.run(), 0);
    EXPECT_NE(err.str().find("edge_properties[0]: size = 6.666666666666667e+76 is out of range"),
              std::string::npos)
        << err.str();
}

// fuzz_checkpoint (UBSan): a checkpoint with an empty state record, whose bytes read_checkpoint
// hashes: sha256::update with an empty span passed its null data() to memcpy (undefined
// behaviour). Empty updates now return at once; the damaged file is refused as before.
TEST(FuzzRegressions, CheckpointWithAnEmptyRecordIsRefusedAndEmptyHashUpdatesAreNoOps) {
    const auto file = regressions / "checkpoint" / "empty_record.ckpt";
    volley::snn::detail::checkpoint_header header;
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::snn::detail::read_checkpoint(file, header); }, {file.string()}));
    volley::snn::detail::sha256 with_empty, without;
    with_empty.update(std::span<const std::byte>{});
    with_empty.update(std::string("abc"));
    with_empty.update(std::span<const std::byte>{});
    without.update(std::string("abc"));
    EXPECT_EQ(with_empty.finish_hex(), without.finish_hex());
    EXPECT_EQ(without.finish_hex().size(), 64u);
}

// fuzz_keras_weights_json: an architecture JSON that is a string ("supported") made
// model.value() throw nlohmann's type_error from inside the reader. Any JSON value of the wrong type
// in a model configuration is now a file_format_error naming the JSON file.
TEST(FuzzRegressions, KerasArchitectureOfTheWrongJsonTypeIsAFormatError) {
    const auto architecture = regressions / "keras_weights_json" / "string_where_object_expected.json";
    const auto weights = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "keras" / "weights_only.h5";
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::convert::read_keras_weights(weights, architecture); },
        {architecture.string(), "unexpected model configuration", "type_error"}));
}

// fuzz_npz: a member's shape "(x, 3)"-like text made std::stoull throw std::invalid_argument.
TEST(FuzzRegressions, NpzMemberWithAMalformedShapeIsAFormatError) {
    const auto file = regressions / "npz" / "malformed_shape.npz";
    // Its first member ('x') has the malformed shape; the mutation also broke the second's
    // local header.
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::snn::read_npz_array(file, "x"); },
        {file.string(), "array 'x'", "malformed shape"}));
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::snn::read_npz_array(file, "y"); },
        {file.string(), "array 'y'", "bad local zip header"}));
}

// fuzz_npz (second run): a 612-byte archive whose deflated member claims gigabytes uncompressed:
// member_bytes allocated the claimed size before inflating (libFuzzer: out-of-memory, 2.2 GB).
// A claim past deflate's 1032:1 is now refused before any allocation.
TEST(FuzzRegressions, NpzMemberClaimingMoreThanDeflateCanProduceIsRefused) {
    const auto file = regressions / "npz" / "claims_gigabytes_uncompressed.npz";
    int refused = 0;
    for (const auto& name : volley::snn::npz_array_names(file)) {
        try {
            volley::snn::read_npz_array(file, name);
        } catch (const volley::file_format_error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(file.string()), std::string::npos) << what;
            if (what.find("more than deflate can produce") != std::string::npos) ++refused;
        }
    }
    EXPECT_GE(refused, 1);
}

// fuzz_npy: the dtype "' <f8'" (a space for the byte order) made std::stoi throw on "f8".
TEST(FuzzRegressions, NpyWithAMalformedDtypeIsAFormatError) {
    const auto file = regressions / "npy" / "malformed_dtype_width.npy";
    EXPECT_TRUE(throws_naming<volley::file_format_error>([&] { volley::snn::read_npy(file); },
                                                         {file.string(), "malformed dtype"}));
}

// fuzz_idx: an 18-byte file whose header promises 2 × 11520 × 525056 values (12 GB): read_idx
// allocated them all before reading (libFuzzer: out-of-memory, malloc of 12 GB). It now grows the
// array with the data, and refuses the file for holding fewer values than promised.
TEST(FuzzRegressions, IdxHeaderPromisingGigabytesIsRefusedWithoutAllocatingThem) {
    const auto file = regressions / "idx" / "header_promises_12gb";
    EXPECT_TRUE(throws_naming<volley::file_format_error>(
        [&] { volley::convert::read_idx(file); },
        {file.string(), "holds 2 values; the header promises 12097290240"}));
}

}  // namespace
