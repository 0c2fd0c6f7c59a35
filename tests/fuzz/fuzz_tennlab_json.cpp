// libFuzzer harness: the TENNLab network JSON loader (load_tennlab_network) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/hw/tennlab_network.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("network.json", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::hw::load_tennlab_network(path.string()));
    return 0;
}
