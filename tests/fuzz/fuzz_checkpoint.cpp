// libFuzzer harness: checkpoint files (read_checkpoint, as Simulation::restore reads them, through the clean copy a child makes) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include "checkpoint/checkpoint_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("state.ckpt", data, size);
    volley::snn::detail::checkpoint_header header;
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::detail::read_checkpoint(path, header));
    return 0;
}
