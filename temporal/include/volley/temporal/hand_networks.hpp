#pragma once
// Hand-built networks for the temporal questions, from the motifs of motifs.hpp
// (docs/temporal.md, "Hand-built networks"). Inputs 0..classes-1 (input index = class), output 0
// = node `classes`.
// - order: latch on A, coincidence with a pulse of B (level after 1 cycle): output fires at
//   b + 1 for the first B at b after an A.
// - count: counter to two on A (level after C cycles): output fires one cycle after the second A.
// - change: a change detector per class, all into output 0 (threshold 1, weight 1, delay 1):
//   output fires at k·C + 2 when frame k changes class (answer_latency 2).
// With motif_timing {u, r} (time unit u, motifs.hpp; report delay r) every motif delay of 1
// above is u and the detectors reach the output with delay r: order fires at b + u, count u
// cycles after the second A, change at k·C + u + r (answer latency u + r).

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/decoding.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/processor_spec.hpp>
#include <volley/temporal/question.hpp>

namespace volley::temporal {

/// The delays of a hand-built network. The DANNA grid needs longer ones than RISP and danna2:
/// a synapse behind h fan-out hops needs a delay of at least h + 1.
struct motif_timing {
    int time_unit = 1;     ///< u: the delay of every motif step (1 .. cycles_per_frame / 2)
    int report_delay = 1;  ///< r: change detectors -> output (>= 1)
    /// The answer latency of the change network [cycles]: u + r.
    int change_latency() const noexcept { return time_unit + report_delay; }
};

/// The hand-built network for `task` with spikes framed by `encoding` (cycles_per_frame) and the
/// properties and proc_params of `spec`. Designed for one spike per frame at the frame's first
/// cycle (winner, or first_spike on oracle features); order and count also work with rate
/// coding on oracle features. invalid_parameter when the parameters cannot hold it (delays,
/// thresholds, a time unit over cycles_per_frame / 2 for change). Associated_Data "temporal"
/// records the question, the classes, cycles_per_frame, time_unit and report_delay.
hw::tennlab_network hand_built_network(const task_spec& task, const encoding_options& encoding,
                                       const processor_spec& spec, const motif_timing& timing = {});

/// The fastest timing with which `spec`'s processor loads the hand-built network for `task`:
/// {1, 1} on RISP and danna2; on the DANNA grid ("danna"), the one of least change latency
/// (then least time unit) whose every synapse delay covers its fan-out hops after place and
/// route. unroutable_network (the last attempt's) when none within the delays does.
motif_timing hand_built_timing(const task_spec& task, const encoding_options& encoding, const processor_spec& spec);

/// The decoding of a hand-built network with `timing` (and of networks evolved from it):
/// answer_latency = timing.change_latency(), tail_cycles raised to it where shorter.
decoding_options hand_built_decoding(const motif_timing& timing);

}  // namespace volley::temporal
