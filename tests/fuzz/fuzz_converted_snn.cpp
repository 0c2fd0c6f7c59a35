// libFuzzer harness: converted spiking networks (`volley convert --out snn.h5`; read_snn_h5, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/convert/snn_h5.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("snn.h5", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::convert::read_snn_h5(path.string()));
    return 0;
}
