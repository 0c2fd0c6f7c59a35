// libFuzzer harness: the Volley network JSON loader (parse_network_json) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/network_json.hpp>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::parse_network_json(text, "fuzz.json"));
    return 0;
}
