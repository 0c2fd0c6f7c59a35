// Instruction-set choice of the CPU kernels (see cpu_isa.hpp).

#include "backends/cpu/cpu_isa.hpp"

#include <cstdlib>
#include <string_view>

namespace volley::snn::detail {

namespace {

cpu_isa detect() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    const char* env = std::getenv("VOLLEY_CPU_ISA");
    const std::string_view cap = env ? env : "";
    if (cap == "baseline" || !__builtin_cpu_supports("avx2")) return cpu_isa::baseline;
    if (cap == "avx2" || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") ||
        !__builtin_cpu_supports("avx512vl") || !__builtin_cpu_supports("avx512bw"))
        return cpu_isa::avx2;
    return cpu_isa::avx512;
#else
    return cpu_isa::baseline;
#endif
}

}  // namespace

cpu_isa cpu_isa_level() {
    static const cpu_isa level = detect();
    return level;
}

}  // namespace volley::snn::detail
