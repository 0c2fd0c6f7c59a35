// libFuzzer harness: SONATA state reports read back (read_sonata_report, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/sonata_report.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("report.h5", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_sonata_report(path));
    return 0;
}
