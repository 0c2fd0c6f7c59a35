#pragma once
// The temporal questions asked about a sequence of labelled frames (docs/temporal.md,
// "Questions"), and their ground truth computed from the frames' class labels.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::temporal {

/// What is asked about a sequence.
enum class question : std::uint8_t {
    /// "Did class A appear before class B?": yes iff some frame i shows A and some frame j > i
    /// shows B (i < j strictly). One answer per sequence.
    order,
    /// "Does frame k show a different class from frame k - 1?", for every frame k >= 1.
    /// frames - 1 answers per sequence.
    change,
    /// "Did class A appear at least twice?": yes iff two or more frames show A. One answer.
    count,
};

/// "order", "change", "count".
std::string to_string(question q);
/// The question called `name`; unknown_name naming it (kind "question") otherwise.
question parse_question(const std::string& name);

/// A question with its parameters and the sequence length.
struct task_spec {
    question kind = question::order;
    int class_a = 7;   ///< A of order and count (default 7, "sneaker")
    int class_b = 8;   ///< B of order (default 8, "bag"); unused by count and change
    int frames = 8;    ///< K, frames per sequence (>= 2)
    int classes = 10;  ///< classes of the labelled set = input neurons of a network

    /// Throws invalid_parameter naming the field and the value: frames < 2, classes < 2, a
    /// class outside [0, classes), or order with class_a == class_b.
    void validate() const;
    /// Answers per sequence: 1 for order and count, frames - 1 for change.
    std::size_t answers_per_sequence() const;
};

/// The ground-truth answers (0 = no, 1 = yes) of `task` for frames of classes `labels`
/// (labels.size() must be task.frames: invalid_parameter otherwise). Change answers are in
/// frame order: element k - 1 answers frame k.
std::vector<std::uint8_t> ground_truth(const task_spec& task, std::span<const std::uint8_t> labels);

}  // namespace volley::temporal
