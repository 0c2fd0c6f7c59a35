#pragma once
// Which vector instruction sets the CPU kernels written with intrinsics may use. Every such
// kernel has a portable twin with the same arithmetic; VOLLEY_CPU_ISA=baseline or avx2 caps
// the choice, so that tests can compare the two on a machine that has AVX-512.

namespace volley::snn::detail {

/// AVX-512 F, DQ and VL are there and VOLLEY_CPU_ISA does not cap them. Read once.
bool cpu_avx512();

}  // namespace volley::snn::detail
