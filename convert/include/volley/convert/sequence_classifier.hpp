#pragma once
// A small GRU classifier of binary questions about frame sequences (did A come before B, did
// the class change), trained with the trainer's optimisers and learning-rate schedule.
//
// Why this design: it mirrors data_parallel_trainer (trainer.hpp) but splits every batch into
// fixed micro-batches rather than one slice per thread. Each micro-batch's gradient is computed
// by one thread into its own buffer and the buffers are summed in micro-batch order, so the
// result is bit-identical for a given seed whatever the thread count.

#include <volley/convert/optimizer.hpp>
#include <volley/convert/sequence_network.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// How to train a sequence_classifier.
struct sequence_training_options {
    std::size_t epochs = 20;
    std::size_t batch_size = 32;     ///< sequences per optimiser step
    double learning_rate = 1e-2;     ///< peak (post-warm-up) rate
    double warmup_epochs = 0;        ///< linear warm-up [epochs]; may be fractional
    double decay_power = 1;          ///< polynomial decay exponent after warm-up (0: constant)
    std::string optimizer = "adam";  ///< "sgd", "adam" or "lars" (make_optimizer)
    optimizer_settings settings{};   ///< momentum, weight decay, Adam β
    std::uint64_t seed = 1;          ///< batch order (epoch_order(count, seed, epoch))
    int threads = 1;  ///< OpenMP threads (0: omp_get_max_threads()); no effect on results
    std::size_t micro_batch = 16;  ///< sequences per gradient pass; results depend on it
};

/// Figures of one epoch.
struct sequence_epoch_record {
    std::size_t epoch = 0;      ///< 1-based
    double train_loss = 0;      ///< mean binary cross-entropy per scored answer
    double train_accuracy = 0;  ///< fraction of scored answers right, during the epoch
    double learning_rate = 0;   ///< at the epoch's last step
    double train_s = 0;         ///< wall time of the epoch [s]
};

/// The outcome of sequence_classifier::train().
struct sequence_training_history {
    std::vector<sequence_epoch_record> epochs;
    std::size_t steps = 0;  ///< optimiser steps
    double wall_s = 0;      ///< whole run [s]
    int threads = 0;        ///< threads used
};

/// GRU + dense head + sigmoid, answering one binary question per sequence or per frame.
class sequence_classifier {
public:
    /// Initialises the weights from config.init_seed; invalid_parameter as sequence_network.
    explicit sequence_classifier(const sequence_network_config& config);

    const sequence_network_config& config() const noexcept { return network_.config(); }
    /// Trainable values (the model's size): 3·H·(F + H + 1) + H + 1.
    std::size_t parameter_count() const noexcept { return network_.parameter_count(); }
    sequence_network<float>& network() noexcept { return network_; }
    const sequence_network<float>& network() const noexcept { return network_; }

    /// Trains on sequences `x` (n, steps, features) against `targets` in [0, 1] (n values for
    /// per_sequence answers, n·steps frame-major for per_frame; unscored frames' values are
    /// ignored) with a fresh optimiser, minimising the mean binary cross-entropy of each batch.
    /// invalid_parameter naming the value for a wrong feature width, frame count or target
    /// count, a target outside [0, 1], or bad options (zero epochs, batch size 0 or above n,
    /// unknown optimiser, threads < 0); training_diverged if the loss stops being finite.
    sequence_training_history train(const sequence_tensor<float>& x, std::span<const float> targets,
                                    const sequence_training_options& options);

    /// Probabilities σ(logit) laid out like the targets (unscored frames included).
    /// invalid_parameter for a wrong feature width or frame count.
    std::vector<float> predict(const sequence_tensor<float>& x, int threads = 1) const;

    /// Fraction of the scored answers whose decision (p > 0.5) matches target ≥ 0.5.
    double accuracy(const sequence_tensor<float>& x, std::span<const float> targets,
                    int threads = 1) const;

private:
    sequence_network<float> network_;
};

}  // namespace volley::convert
