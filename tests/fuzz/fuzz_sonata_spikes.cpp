// libFuzzer harness: SONATA spike files read back for analysis (read_sonata_spikes, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/sonata_spikes.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("spikes.h5", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_sonata_spikes(path));
    return 0;
}
