#pragma once
// The tables `volley demo` prints after the pipeline ran (docs/demo.md).

#include <volley/pipeline/pipeline.hpp>

namespace volley::cli {

/// Prints the CNN and SNN accuracies per T, the layers, the stages' wall times, the hardware
/// head's table, the temporal stage's table and the files written, on stdout.
void print_demo_summary(const pipeline::pipeline_result& result);

}  // namespace volley::cli
