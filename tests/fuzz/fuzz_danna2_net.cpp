// libFuzzer harness: the danna2 .net format (read_danna2_net) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/danna/danna2_net_format.hpp>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::danna::read_danna2_net(in, "fuzz.net"));
    return 0;
}
