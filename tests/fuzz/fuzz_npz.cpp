// libFuzzer harness: .npz archives (npz_array_names, read_npz_array for every member) (tests/fuzz/README.md).
#include "fuzz_support.hpp"

#include <volley/snn/npz_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto path = volley::fuzz::write_input("arrays.npz", data, size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(
        for (const auto& name : volley::snn::npz_array_names(path)) {
            VOLLEY_FUZZ_REFUSALS_ARE_FINE(volley::snn::read_npz_array(path, name));
        });
    return 0;
}
