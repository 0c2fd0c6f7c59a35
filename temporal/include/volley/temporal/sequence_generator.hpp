#pragma once
// Seeded generation of frame sequences from a labelled image set (docs/temporal.md,
// "Sequences"). The generator uses its own splitmix64 stream and integer arithmetic, so a seed
// gives the same sequences on every platform and standard library.
//
// Balance: for order and count, sequence i is made to answer yes when i is even and no when
// it is odd (exactly half yes for an even count), by rejection sampling of the class sequence;
// for change, every frame k >= 1 repeats the class of frame k - 1 with probability
// `repeat_rate` (default 1/2) and otherwise takes one of the other classes, so about half the
// change answers are yes.

#include <volley/temporal/question.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace volley::temporal {

/// One sequence: an image index of the labelled set per frame, the labels, and the answers.
struct sequence {
    std::vector<std::uint32_t> images;   ///< index into the set it was drawn from, per frame
    std::vector<std::uint8_t> labels;    ///< class of each frame
    std::vector<std::uint8_t> answers;   ///< ground_truth(task, labels)
};

/// Generator settings.
struct generator_options {
    std::size_t count = 200;   ///< sequences to make
    std::uint64_t seed = 1;    ///< sequence i draws from the stream keyed by (seed, i)
    /// order: each frame shows A with this probability, B with this probability, and one of
    /// the other classes otherwise; count: A with this probability. In (0, 0.5].
    double focus_rate = 0.25;
    double repeat_rate = 0.5;  ///< change: chance that a frame repeats the previous class, in [0, 1]
    int max_tries = 100000;    ///< rejection-sampling attempts per sequence before giving up
};

/// Makes `options.count` sequences for `task` from a set whose image i has class
/// `set_labels[i]` (pass the training set's labels for training sequences and the test set's
/// for test sequences). Images of a class are drawn uniformly among that class's images.
/// invalid_parameter naming the value for bad options or a class without any image; the
/// sequences of indices 0..n-1 do not depend on `count`.
std::vector<sequence> generate_sequences(const task_spec& task, std::span<const std::uint8_t> set_labels,
                                         const generator_options& options);

/// Every image index the sequences use, ascending, each once.
std::vector<std::uint32_t> images_used(const std::vector<sequence>& sequences);

}  // namespace volley::temporal
