// libFuzzer harness: a Volley network JSON file parsed, built and run for a few steps
// (tests/fuzz/README.md). The builder's resource limits are what it exercises: every size,
// delay, refractory period and connector a file can hold reaches the construction of the CPU
// engine, which must refuse what it cannot represent or what will not fit in max_memory_bytes
// (256 MiB here, under the fuzzer's 2 GiB RSS limit) before allocating it. It reads the
// network_json seeds and dictionary (scripts/fuzz).
#include "fuzz_support.hpp"

#include <volley/snn/network_json.hpp>
#include <volley/snn/simulation.hpp>

#include <string>

namespace {
void build_and_run(const std::string& text) {
    const auto file = volley::snn::parse_network_json(text, "fuzz.json");
    volley::snn::simulation_options options;
    options.seed = file.run.seed;
    options.max_memory_bytes = std::uint64_t{256} << 20;
    volley::snn::context ctx;
    ctx.threads = 1;
    volley::snn::simulation sim(file.net, ctx, options);
    sim.run(2.0);  // 20 steps: the first deliveries, resets and refractory countdowns
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    VOLLEY_FUZZ_REFUSALS_ARE_FINE(build_and_run(text));
    return 0;
}
