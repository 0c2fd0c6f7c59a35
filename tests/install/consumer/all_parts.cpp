// Links one function of each installed library and checks its documented result.

#include <volley/convert/learning_rate_schedule.hpp>
#include <volley/danna/grid_params.hpp>
#include <volley/hw/risp_params.hpp>
#include <volley/snn/sha256.hpp>

#include <cstdio>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

}  // namespace

int main() {
    volley::snn::detail::sha256 h;
    h.update(std::string("abc"));
    check(h.finish_hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
          "snn: SHA-256 of \"abc\" is the FIPS 180-4 example digest");

    volley::hw::risp_params risp;
    risp.threshold_inclusive = false;
    check(risp.effective_threshold(3) == 4, "hw: a discrete exclusive threshold of 3 fires at 4");

    check(volley::danna::grid_preset("fpga2014").cells() == 65 * 65, "danna: fpga2014 is 65 x 65");

    const volley::convert::learning_rate_schedule lr{
        .base_rate = 0.5, .warmup_steps = 2, .total_steps = 10, .power = 2};
    check(lr.at(0) == 0.25, "convert: warm-up step 0 of 2 runs at half the base rate");

    if (failures == 0) std::printf("all volley parts linked\n");
    return failures == 0 ? 0 : 1;
}
