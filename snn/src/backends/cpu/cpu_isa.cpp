// Instruction-set choice of the CPU kernels (see cpu_isa.hpp).

#include "backends/cpu/cpu_isa.hpp"

#include <cstdlib>
#include <string_view>

namespace volley::snn::detail {

bool cpu_avx512() {
#if defined(__GNUC__) && defined(__x86_64__)
    static const bool yes = [] {
        const char* cap = std::getenv("VOLLEY_CPU_ISA");
        const bool capped = cap != nullptr && (std::string_view(cap) == "baseline" || std::string_view(cap) == "avx2");
        return !capped && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
    }();
    return yes;
#else
    return false;
#endif
}

}  // namespace volley::snn::detail
