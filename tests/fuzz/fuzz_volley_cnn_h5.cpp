// libFuzzer harness: the Volley CNN HDF5 layout (read_volley_h5, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/convert/cnn_readers.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("cnn.h5", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::convert::read_volley_h5(path));
    return 0;
}
