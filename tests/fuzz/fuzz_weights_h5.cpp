// libFuzzer harness: synaptic weight files (`volley run --out` of plastic projections; read_weights, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/weights_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("weights.h5", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_weights(path));
    return 0;
}
