// libFuzzer harness: processor_tool command streams (volley::hw::processor_tool) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/hw/processor_tool.hpp>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    volley::fuzz::enter_scratch_dir();  // commands that write files write them there
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::ostringstream out, err;
    volley::hw::processor_tool tool(in, out, err);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(tool.run());
    return 0;
}
