// libFuzzer harness: Keras save_weights architecture JSON (read_keras_weights, with the weights of tests/data/keras/weights_only.h5) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/convert/cnn_readers.hpp>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path weights = [] {
        const char* source = std::getenv("VOLLEY_SOURCE_DIR");
        return std::filesystem::path(source ? source : VOLLEY_SOURCE_DIR_DEFAULT) /
               "tests/data/keras/weights_only.h5";
    }();
    const auto path = volley::fuzz::write_input("architecture.json", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::convert::read_keras_weights(weights, path));
    return 0;
}
