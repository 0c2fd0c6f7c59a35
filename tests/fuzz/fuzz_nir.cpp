// libFuzzer harness: NIR files (read_nir, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/nir_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("graph.nir", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_nir(path));
    return 0;
}
