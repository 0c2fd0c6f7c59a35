#pragma once
// Which vector instruction sets the CPU kernels written with intrinsics may use: the one
// CPU-feature detector of the engine. Every such kernel has a portable twin with the same
// arithmetic; VOLLEY_CPU_ISA=baseline or avx2 caps the choice, so that tests can compare the
// kernels on a machine that has AVX-512 (they agree bit for bit).

namespace volley::snn::detail {

/// The widest instruction set the kernels may use, from the narrowest up.
enum class cpu_isa { baseline, avx2, avx512 };

/// The CPU's level, capped by VOLLEY_CPU_ISA: avx512 needs AVX-512 F, DQ, VL and BW; avx2
/// needs AVX2; anything else, or a non-x86 build, is baseline. Read once.
cpu_isa cpu_isa_level();

/// cpu_isa_level() == cpu_isa::avx512.
inline bool cpu_avx512() { return cpu_isa_level() == cpu_isa::avx512; }

}  // namespace volley::snn::detail
