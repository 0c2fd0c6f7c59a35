#pragma once
// Which vector instruction sets the CPU kernels written with intrinsics may use: the one
// CPU-feature detector of the engine. Every such kernel has a portable twin with the same
// arithmetic; simulation_options::max_isa caps the choice, so that tests can compare the kernels
// on a machine that has AVX-512 (they agree bit for bit). The engine resolves the level once,
// when it is built, and hands it to every part that has such a kernel.

#include <volley/snn/simulation.hpp>

namespace volley::snn::detail {

/// The widest instruction set the kernels may use, from the narrowest up.
enum class cpu_isa { baseline, avx2, avx512 };

/// The CPU's level: avx512 needs AVX-512 F, DQ, VL and BW; avx2 needs AVX2; anything else, or
/// a non-x86 build, is baseline. Detected once.
cpu_isa cpu_isa_level();

/// The CPU's level capped by `cap`.
cpu_isa cpu_isa_level(instruction_set cap);

}  // namespace volley::snn::detail
