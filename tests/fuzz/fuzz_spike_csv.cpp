// libFuzzer harness: spike CSV files (read_spike_csv) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/spike_csv.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("spikes.csv", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_spike_csv(path));
    return 0;
}
