// Instruction-set choice of the CPU kernels (see cpu_isa.hpp).

#include "backends/cpu/cpu_isa.hpp"

#include <algorithm>

namespace volley::snn::detail {

namespace {

cpu_isa detect() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) return cpu_isa::baseline;
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") ||
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

cpu_isa cpu_isa_level(instruction_set cap) {
    const cpu_isa limit = cap == instruction_set::baseline ? cpu_isa::baseline
                          : cap == instruction_set::avx2   ? cpu_isa::avx2
                                                           : cpu_isa::avx512;
    return std::min(cpu_isa_level(), limit);
}

}  // namespace volley::snn::detail
