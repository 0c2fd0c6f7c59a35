// libFuzzer harness: IDX files, plain or gzip (read_idx) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/convert/idx_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("images-idx3-ubyte", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::convert::read_idx(path));
    return 0;
}
