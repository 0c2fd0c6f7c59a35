// libFuzzer harness: DANNA programme JSON (load_programme) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/danna/grid_programme.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("programme.json", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::danna::load_programme(path.string()).validate());
    return 0;
}
