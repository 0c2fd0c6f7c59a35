#pragma once
// results.h5 of the pipeline and `volley demo` (docs/demo.md): the figures of the run and the spikes of one image.
//
//   /                       attributes model_file, model_sha256, model_source ("trained" or
//                           "cache"), training (the `volley train` command line), data,
//                           raster_image (index of the recorded test image), raster_label,
//                           raster_steps, dt_ms
//   /results/timesteps          int64   [nT]  the checkpoints T
//   /results/snn_accuracy       float64 [nT]  fraction correct at each T
//   /results/agreement          float64 [nT]  fraction of images where the SNN's class = the CNN's
//   /results/spikes_per_image   float64 [nT]  IF-layer spikes in the first T steps
//   /results/synops_per_image   float64 [nT]  synaptic events in the first T steps
//   /results/cnn_accuracy       float64 scalar on the same images
//   /results/images             uint64  scalar  images evaluated
//   /results/layer_names        string  [L]   spiking layers, input to output
//   /results/layer_neurons      uint64  [L]
//   /results/layer_lambda       float64 [L]   the normalisation scale λ
//   /results/layer_rate         float64 [L]   spikes per neuron and step at the largest T
//   /spikes/<layer>/{node_ids, timestamps}    the recorded image, SONATA spike layout [ms]
//   /hardware               (when the head ran on hardware) attributes bits, timesteps, images,
//                           integer_accuracy (engine integer mode at that T), float_accuracy
//                           (the float SNN at that T; NaN when T is not a checkpoint)
//   /hardware/<processor>   attributes head_file, agreement (fraction of images whose hardware
//                           prediction equals the engine integer mode's), same_counts,
//                           same_charges, charge_beyond_range (fractions of images),
//                           neurons, synapses, cycles_per_image, time_s_per_image,
//                           energy_j_per_image, events_per_image_<kind> (the cost_report)

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::pipeline {

/// The spikes of one layer for the recorded image.
struct layer_spike_train {
    std::string layer;
    std::vector<std::uint64_t> node_ids;
    std::vector<double> times_ms;
};

/// The classifier head on one processor.
struct hardware_result {
    std::string processor, head_file;
    double agreement = 0, same_counts = 0, same_charges = 0, charge_beyond_range = 0;
    std::int64_t neurons = 0, synapses = 0;
    double cycles_per_image = 0, time_s_per_image = 0, energy_j_per_image = 0;
    std::vector<std::pair<std::string, double>> events_per_image;
};

/// Everything results.h5 holds.
struct results_record {
    std::string model_file, model_sha256, model_source, training, data;
    std::vector<std::int64_t> timesteps;
    std::vector<double> snn_accuracy, agreement, spikes_per_image, synops_per_image;
    double cnn_accuracy = 0;
    std::uint64_t images = 0;
    std::vector<std::string> layer_names;
    std::vector<std::uint64_t> layer_neurons;
    std::vector<double> layer_lambda, layer_rate;
    std::uint64_t raster_image = 0;
    std::int64_t raster_label = -1;
    std::int64_t raster_steps = 0;
    double dt_ms = 1;
    std::vector<layer_spike_train> spikes;
    // The quantised classifier head on hardware (empty `hardware`: not run).
    int hardware_bits = 0;
    std::int64_t hardware_timesteps = 0;
    std::uint64_t hardware_images = 0;
    double integer_accuracy = 0, float_accuracy_at_hardware_T = 0;
    std::vector<hardware_result> hardware;
};

/// Writes `file` whole: to FILE.tmp, renamed over `file` once complete and closed. io_error
/// naming the file when a write fails (a full disk: HDF5's room is reserved first); then nothing
/// is left under either name, and a file there before is kept.
void write_results_file(const std::filesystem::path& file, const results_record& r);

}  // namespace volley::pipeline
