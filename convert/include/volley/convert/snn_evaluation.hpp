#pragma once
// Running a converted network on images, on the engine, and reading it at several numbers of
// steps in one run. The dynamics are causal, so the output spike counts read after T steps are
// those of a run of exactly T steps: one run of 256 steps gives the accuracy at 8, 16, ..., 256.
//
// Images are independent simulations: each worker thread owns one snn::simulation (one engine
// thread) and reuses it with simulation::reset(); results are stored by image index, so they
// are identical for any number of workers.

#include <volley/convert/snn_conversion.hpp>
#include <volley/snn/context.hpp>
#include <volley/snn/simulation.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// How the output layer names a class.
enum class readout_rule : std::uint8_t {
    /// Most spikes, ties broken by the larger membrane potential, then by the lower index.
    spike_count,
    /// The largest integrated membrane, spikes × threshold + v (ties: the lower index). Under
    /// reset by subtraction this is v0 plus all the input the neuron has received, so it keeps
    /// what a spike count loses: the residual below the threshold, and input that turned
    /// negative after spikes were fired. Under reset to 0 it is the spikes plus the residual.
    membrane,
};

/// Evaluation settings.
struct evaluation_options {
    std::vector<std::int64_t> timesteps = {8, 16, 32, 64, 128, 256};  ///< checkpoints, ascending, >= 1
    int threads = 1;          ///< worker threads, each running one image at a time (>= 1)
    std::uint64_t seed = 1;   ///< seed of the spike-coded inputs (keyed by image index)
    readout_rule readout = readout_rule::spike_count;
    /// Also return the output layer's evidence per image (spike counts and final membrane at
    /// the largest checkpoint) in evaluation_result::output_counts / output_membrane.
    bool keep_output_evidence = false;
    /// The widest kernels the engine may use (tuning: the same spikes with any).
    snn::instruction_set max_isa = snn::instruction_set::best;
    /// The engine (the same spikes on each): cpu runs `threads` batches at once, one thread
    /// each; portable and cuda (GPU 0) run one batch at a time with `threads` OpenMP threads
    /// (portable) or the GPU.
    snn::backend_kind backend = snn::backend_kind::cpu;
    /// Images per simulation: a batch of B images runs as one network with the images as a
    /// batch dimension (every population B times, block-diagonal projections), each image
    /// with the spikes it has alone. 0: 1 on the cpu backend, default_device_batch on a device.
    std::size_t batch = 0;
    /// Called from worker threads with the number of images finished; may be empty.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

/// The batch of images a device backend runs at once unless evaluation_options::batch says.
inline constexpr std::size_t default_device_batch = 64;

/// The figures at one checkpoint T.
struct checkpoint_result {
    std::int64_t timesteps = 0;
    std::size_t correct = 0;   ///< predictions equal to the label
    std::size_t agree = 0;     ///< predictions equal to the CNN's
    double accuracy = 0;       ///< correct / images (NaN without labels)
    double agreement = 0;      ///< agree / images (NaN without CNN predictions)
    double spikes_per_image = 0;  ///< spikes of the IF layers in the first T steps (inputs not counted)
    double synops_per_image = 0;  ///< synaptic events in the first T steps
};

/// The mean firing rate of one layer over the whole run.
struct layer_rate {
    std::string name;
    std::size_t neurons = 0;
    double spikes_per_step = 0;  ///< spikes per neuron and step, in [0, 1]
};

/// What evaluate_snn measured.
struct evaluation_result {
    std::size_t images = 0;
    std::vector<checkpoint_result> checkpoints;
    std::vector<layer_rate> layers;  ///< at the largest T
    /// predictions[c][i]: the class predicted for image i at checkpoint c (by the options' readout).
    std::vector<std::vector<std::int32_t>> predictions;
    /// output_counts[i][k]: spikes of output neuron k for image i in the first T steps, T the
    /// largest checkpoint (empty unless evaluation_options::keep_output_evidence).
    std::vector<std::vector<std::uint32_t>> output_counts;
    /// output_membrane[i][k]: membrane potential of output neuron k for image i after T steps
    /// (empty unless evaluation_options::keep_output_evidence).
    std::vector<std::vector<double>> output_membrane;
    double wall_s = 0;
    double synops_per_s = 0;  ///< synaptic events at the largest T / wall time
};

/// Runs `net` on `images` (n x image_size CHW pixels). `labels` and `cnn_predictions` are empty
/// or hold one value per image. invalid_parameter for an image block whose size is not a
/// multiple of the image size, a label count mismatch or bad checkpoints.
evaluation_result evaluate_snn(const converted_snn& net, std::span<const float> images,
                               std::span<const std::int32_t> labels, std::span<const std::int32_t> cnn_predictions,
                               const evaluation_options& options = {});

/// The readout of an output layer: the class with most spikes, ties broken by the larger
/// membrane potential, then by the lower index.
std::int32_t spike_count_readout(std::span<const std::uint32_t> counts, std::span<const double> membrane);

/// The readout `rule` of the output layer of `net`, from its spike counts and membrane
/// potentials (the threshold is read from the output population's model).
std::int32_t read_output(const converted_snn& net, readout_rule rule, std::span<const std::uint32_t> counts,
                         std::span<const double> membrane);

/// "count" / "membrane", and back: invalid_parameter naming `option` for another word.
std::string to_string(readout_rule r);
readout_rule parse_readout_rule(const std::string& option, const std::string& word);

}  // namespace volley::convert
