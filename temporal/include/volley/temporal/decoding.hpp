#pragma once
// Reading the answers from the fire times of output 0 (docs/temporal.md, "Decoding").
// A sequence of K frames of C cycles runs for K·C + tail_cycles cycles.
// - order, count: yes iff output 0 fires at least once in the answer window: the whole run
//   (default), or with answer_window::last_frame the cycles [(K-1)·C, K·C + tail).
// - change: frame k >= 1 is a change iff output 0 fires in [k·C + L, (k+1)·C + L), L =
//   answer_latency (the network's fixed reaction time).

#include <volley/temporal/question.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace volley::temporal {

/// Where order and count answers are read.
enum class answer_window : std::uint8_t {
    whole_run,   ///< any fire of the run
    last_frame,  ///< fires in the last frame or the tail
};

/// The decoding settings.
struct decoding_options {
    answer_window window = answer_window::whole_run;
    int answer_latency = 2;  ///< L [cycles] of change windows (>= 0; the hand-built network's is 2)
    int tail_cycles = 4;     ///< cycles run after the last frame (>= answer_latency)

    /// invalid_parameter naming the field and value when out of range.
    void validate() const;
    /// Cycles of one run: frames · cycles_per_frame + tail_cycles.
    std::int64_t run_cycles(const task_spec& task, int cycles_per_frame) const;
};

/// The answers given by output 0 firing at `fire_cycles` (cycles since the run's start).
std::vector<std::uint8_t> decode_answers(const task_spec& task, int cycles_per_frame, const decoding_options& options,
                                         std::span<const double> fire_cycles);

/// Correct answers and answers of a set: order/count one per sequence, change one per frame.
struct answer_tally {
    std::size_t correct = 0, total = 0;
    double accuracy() const noexcept { return total ? static_cast<double>(correct) / static_cast<double>(total) : 0; }
};

/// Adds the comparison of `given` with `truth` (same size, else invalid_parameter) to `tally`.
void tally_answers(answer_tally& tally, std::span<const std::uint8_t> given, std::span<const std::uint8_t> truth);

}  // namespace volley::temporal
