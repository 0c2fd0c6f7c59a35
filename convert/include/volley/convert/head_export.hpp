#pragma once
// The classifier head of a converted network on a neuroprocessor: the trailing dense layers of
// the integer mode (snn_quantization.hpp) written as TENNLab network JSON for RISP or danna2,
// driven by the spikes that the engine produced for the layer below, and checked against the
// engine. See docs/conversion.md, "The classifier head on RISP and danna2".
//
// Hardware network (node ids in this order):
//   - one input node per head input feature (the neurons of the layer below the head), then one
//     "bias" input node, all Threshold 1, driven by raw input spikes of value 1;
//   - the head layers' neurons, Threshold θ_l + 1 (the engine fires when v > θ_l, the hardware
//     when charge >= Threshold; both compare integers), reset to 0 by the hardware;
//   - edges: input -> first head layer, Weight W, Delay 1; bias -> layer k, Weight round(b·s),
//     Delay k + 1; layer k−1 -> layer k, Weight W, Delay 1 + d_k (d_k: the engine's delay of
//     that projection, in steps). danna2 nodes have Refractory 0 (the engine has none).
// With these delays, what the engine's head layer k integrates in its step e the hardware
// integrates in step e + k + 1; a head input spike of engine step u (integrated by the head
// at u + d_in) is applied at hardware time u + d_in. The hardware runs T + (head layers) steps
// and its output fire counts and final charges equal the engine's after T steps.

#include <volley/convert/snn_quantization.hpp>
#include <volley/hw/cost_report.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// The neuroprocessors a head can be exported to.
enum class head_hardware : std::uint8_t { risp, danna2 };

/// "risp" / "danna2".
std::string to_string(head_hardware h);
/// Parses "risp" or "danna2"; invalid_parameter naming `object` otherwise.
head_hardware head_hardware_from_name(const std::string& name, const std::string& object);

/// The largest engine threshold θ of a head layer on `h`: danna2's thresholds are 0..1023 and
/// the hardware threshold is θ + 1, so 1022; RISP takes its bounds from the network (0: none).
double head_threshold_limit(head_hardware h);

/// The exported head and how its nodes map to the engine's neurons.
struct head_network {
    head_hardware hardware = head_hardware::danna2;
    hw::tennlab_network network;  ///< with Associated_Data other.proc_name and proc_params
    std::size_t inputs = 0;       ///< head input features: nodes 0..inputs-1
    hw::node_id bias_node = 0;    ///< = inputs
    std::vector<hw::node_id> layer_first;  ///< first node id of each head layer
    std::size_t classes = 0;      ///< neurons of the output layer (the network's outputs)
    std::int64_t input_delay = 1; ///< d_in [steps]: the engine's delay into the head
    std::int64_t latency = 1;     ///< hardware steps beyond T: the number of head layers
};

/// Writes the head of `q` (head_start(), at least one layer) for `h`. unsupported_model naming
/// the layer when there is no dense head; invalid_parameter naming the layer, the value and the
/// limit when a threshold, weight, bias or delay does not fit the processor (danna2: thresholds
/// 0..1023, weights ±1023, delays 1..256), never a silent clamp.
head_network export_head(const quantized_snn& q, head_hardware h);

/// Settings of a hardware check.
struct head_check_options {
    std::int64_t timesteps = 64;  ///< T: engine steps per image
    int threads = 1;              ///< worker threads, one image at a time each
};

/// What the hardware gave beside the engine's integer mode.
struct head_check_result {
    std::size_t images = 0;
    std::int64_t timesteps = 0;
    std::vector<std::int32_t> engine_predictions;    ///< integer mode on the engine (spike count, ties by membrane)
    std::vector<std::int32_t> hardware_predictions;  ///< the same readout of the hardware's counts and charges
    std::size_t same_prediction = 0;  ///< images with equal predictions
    std::size_t same_counts = 0;      ///< images whose output fire counts are all equal
    std::size_t same_charges = 0;     ///< images whose final output charges are all equal
    /// Images where an engine output charge at T lies outside the processor's charge range
    /// (danna2: a saturating 16-bit charge, −32768..32767): there the hardware holds the bound
    /// instead, which changes the charge but not a fire count unless the charge climbs back.
    std::size_t charge_beyond_range = 0;
    std::uint64_t engine_output_spikes = 0, hardware_output_spikes = 0;
    std::uint64_t input_spikes = 0;   ///< head input spikes applied (all images)
    hw::cost_report cost;             ///< summed over the images (cycles and events)
    double wall_s = 0;
};

/// Runs `images` (CHW pixels, n x image size) through the integer-mode network on the engine,
/// records the spikes of the layer below the head, drives the exported head with them on the
/// processor and compares. The same for any number of threads.
head_check_result check_head_on_hardware(const quantized_snn& q, const head_network& head,
                                         std::span<const float> images, const head_check_options& options = {});

/// The same for several exported heads of the same `q` (e.g. RISP and danna2) from one engine
/// run per image; one result per head, in order.
std::vector<head_check_result> check_heads_on_hardware(const quantized_snn& q, std::span<const head_network> heads,
                                                       std::span<const float> images,
                                                       const head_check_options& options = {});

}  // namespace volley::convert
