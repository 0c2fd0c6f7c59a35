#pragma once
// Hand-built networks for the temporal questions, from the motifs of motifs.hpp
// (docs/temporal.md, "Hand-built networks"). Inputs 0..classes-1 (input index = class), output 0
// = node `classes`.
// - order: latch on A, coincidence with a pulse of B (level after 1 cycle): output fires at
//   b + 1 for the first B at b after an A.
// - count: counter to two on A (level after C cycles): output fires one cycle after the second A.
// - change: a change detector per class, all into output 0 (threshold 1, weight 1, delay 1):
//   output fires at k·C + 2 when frame k changes class (answer_latency 2).

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/processor_spec.hpp>
#include <volley/temporal/question.hpp>

namespace volley::temporal {

/// The answer latency of hand_built_network for change [cycles].
inline constexpr int hand_built_change_latency = 2;

/// The hand-built network for `task` with spikes framed by `encoding` (cycles_per_frame) and the
/// properties and proc_params of `spec`. Designed for one spike per frame at the frame's first
/// cycle (winner, or first_spike on oracle features); order and count also work with rate
/// coding on oracle features. invalid_parameter when the parameters cannot hold it (delays,
/// thresholds).
hw::tennlab_network hand_built_network(const task_spec& task, const encoding_options& encoding,
                                       const processor_spec& spec);

}  // namespace volley::temporal
