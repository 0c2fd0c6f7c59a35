// libFuzzer harness: .npy files (read_npy) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/npz_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("array.npy", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_npy(path));
    return 0;
}
