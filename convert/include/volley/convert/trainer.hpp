#pragma once
// Data-parallel mini-batch training on the CPU.
//
// Why this design: every batch is cut into a fixed number of contiguous slices; each slice is
// worked through in micro-batches by one thread, which accumulates its gradients in the slice's
// own buffers; the slices' gradients are then summed in slice order. Every sum therefore happens
// in the same order on every run, so training is bit-reproducible for a given seed and slice
// count, whatever the threads and processes that compute the slices (You et al. 2017 use the same
// data-parallel scheme across CPU nodes). Across processes (MPI ranks, gradient_share) each
// process computes a contiguous block of the slices and the processes exchange every slice's
// gradients, so each one sums them in the same order.

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/learning_rate_schedule.hpp>
#include <volley/convert/optimizer.hpp>
#include <volley/convert/sequential_model.hpp>
#include <volley/error.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace volley::convert {

/// The loss became NaN or infinite: training stops and names where.
class training_diverged : public error {
public:
    training_diverged(std::size_t epoch, std::size_t step, double loss)
        : error("training diverged: loss = " + std::to_string(loss) + " at epoch " +
                std::to_string(epoch) + ", step " + std::to_string(step) +
                " (try a lower --lr or a longer --warmup-epochs)"),
          epoch_(epoch), step_(step) {}
    /// 1-based epoch and 1-based step within it.
    std::size_t epoch() const noexcept { return epoch_; }
    std::size_t step() const noexcept { return step_; }

private:
    std::size_t epoch_, step_;
};

/// How the slices of each batch are shared between processes (e.g. MPI ranks; docs/training.md,
/// "On MPI ranks"): process `rank` computes slices [S·rank/ranks, S·(rank+1)/ranks) and `gather`
/// (a collective call: every process makes it) returns every process's values in rank order.
/// Every process must train the same model with the same options.
struct gradient_share {
    int rank = 0;   ///< this process, in [0, ranks)
    int ranks = 1;  ///< processes; 1: no sharing (gather is not called)
    std::function<std::vector<double>(std::span<const double> mine)> gather;
};

/// How to train.
struct training_options {
    std::size_t batch_size = 128;   ///< images per optimiser step
    std::size_t epochs = 10;
    double learning_rate = 1e-3;    ///< peak (post-warm-up) rate
    double warmup_epochs = 0;       ///< linear warm-up length [epochs]; may be fractional
    double decay_power = 2;         ///< polynomial decay exponent after warm-up
    int threads = 0;                ///< OpenMP threads (0: omp_get_max_threads())
    std::uint64_t seed = 1;         ///< shuffling and Dropout masks
    std::size_t micro_batch = 32;   ///< images per forward/backward pass inside a thread
    /// Slices of each batch, summed in order (0: threads × share.ranks). The result depends on
    /// the seed and the slice count only: equal slices give equal weights on any threads and ranks.
    std::size_t slices = 0;
    gradient_share share{};         ///< processes computing the slices (default: this one)
};

/// The result of one optimiser step.
struct step_result {
    double loss = 0;          ///< mean cross-entropy over the batch
    std::size_t correct = 0;  ///< arg-max hits in the batch (training mode)
};

/// Figures of one epoch.
struct epoch_record {
    std::size_t epoch = 0;          ///< 1-based
    double train_loss = 0;          ///< mean over the epoch's images
    double train_accuracy = 0;      ///< fraction, in training mode (with Dropout)
    double test_accuracy = 0;       ///< fraction; NaN without a test set
    double learning_rate = 0;       ///< at the epoch's last step
    double train_s = 0;             ///< training time of this epoch [s], evaluation excluded
    double images_per_s = 0;        ///< training throughput of this epoch
};

/// The outcome of train().
struct training_report {
    std::vector<epoch_record> epochs;
    double test_accuracy = 0;   ///< final, fraction
    double wall_s = 0;          ///< whole run including evaluation [s]
    double images_per_s = 0;    ///< training images / training time
    std::size_t steps = 0;
    int threads = 0;
    std::size_t slices = 0;     ///< slices of each batch
    int ranks = 1;              ///< processes that shared them
    double exchange_s = 0;      ///< time in the processes' gradient exchange [s] (0 on one)
};

/// Progress of the current epoch, reported after every step.
struct training_progress {
    std::size_t epoch, step, steps_per_epoch;
    double mean_loss;      ///< over the epoch so far
    double images_per_s;   ///< over the epoch so far
};

/// Runs forward and backward passes of a model over batches, on a fixed number of threads.
class data_parallel_trainer {
public:
    /// invalid_parameter if threads < 0, micro_batch = 0, or a share without gather or with
    /// rank outside [0, ranks). `slices` = 0: threads × share.ranks.
    data_parallel_trainer(sequential_model<float>& model, int threads, std::size_t micro_batch = 32,
                          std::size_t slices = 0, gradient_share share = {});
    ~data_parallel_trainer();

    /// The thread count in use.
    int threads() const noexcept { return threads_; }
    /// The slices of each batch (all processes').
    std::size_t slices() const noexcept { return slices_; }
    /// Time spent in the processes' gradient exchange so far [s].
    double exchange_s() const noexcept { return exchange_s_; }

    /// Computes the mean gradient over the images `batch` (indices into `data`) into
    /// gradients(), in training mode, without updating the model.
    step_result compute_gradients(const image_dataset& data, std::span<const std::uint32_t> batch,
                                  std::uint64_t seed, std::uint64_t step);
    /// compute_gradients, then one optimiser step at `learning_rate`.
    step_result train_step(const image_dataset& data, std::span<const std::uint32_t> batch,
                           optimizer& opt, double learning_rate, std::uint64_t seed,
                           std::uint64_t step);
    /// The model's parameter arrays, in layer order, and their last mean gradients.
    std::span<parameter<float>* const> parameters() const noexcept { return params_; }
    std::span<const std::vector<float>> gradients() const noexcept { return grads_; }

    /// Fraction of `data` classified correctly, in inference mode.
    double evaluate(const image_dataset& data);

private:
    struct workspace;
    /// Sums the slices of every process: each process's records in slice order (exchange).
    step_result combine_shared(std::size_t layers);
    sequential_model<float>& model_;
    int threads_;
    std::size_t micro_batch_;
    std::size_t slices_ = 0, first_slice_ = 0;  // all processes' slices; this process's first
    gradient_share share_;
    double exchange_s_ = 0;
    std::vector<parameter<float>*> params_;
    std::vector<std::size_t> first_param_;  // per layer
    std::vector<std::vector<float>> grads_;
    std::vector<std::unique_ptr<workspace>> workspaces_;
};

/// Trains `model` on `train` for options.epochs epochs with `opt`, under linear warm-up and
/// polynomial decay, evaluating on `test` (if not null) after each epoch. Batches follow
/// epoch_order(seed, epoch); the last batch of an epoch may be smaller.
/// invalid_parameter for an impossible batch size (0 or more than the training set), zero
/// epochs or a bad rate; training_diverged if the loss is not finite.
training_report train(sequential_model<float>& model, optimizer& opt, const image_dataset& train,
                      const image_dataset* test, const training_options& options,
                      const std::function<void(const training_progress&)>& on_progress = {},
                      const std::function<void(const epoch_record&)>& on_epoch = {});

}  // namespace volley::convert
