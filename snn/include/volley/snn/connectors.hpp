#pragma once
// Connectors: value types that say which source neuron connects to which target neuron.
// Random connectors draw from counter-based streams keyed by (seed, projection, target), so a
// network builds the same synapses on any number of threads or ranks.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace volley::snn {

/// Every source to every target. With a list-valued weight or delay, element
/// [source * n_target + target] belongs to that synapse (a row-major weight matrix).
struct all_to_all {
    bool allow_autapses = true;  ///< when source == target population, connect i -> i too
    friend bool operator==(const all_to_all&, const all_to_all&) = default;
};

/// Source i to target i; both populations must have the same size.
struct one_to_one {
    friend bool operator==(const one_to_one&, const one_to_one&) = default;
};

/// Each (source, target) pair independently with probability p.
struct fixed_probability {
    double p = 0.1;  ///< connection probability, in [0, 1]
    bool allow_autapses = true;
    friend bool operator==(const fixed_probability&, const fixed_probability&) = default;
};

/// Each target gets exactly k sources, drawn uniformly: distinct ones (without replacement), or
/// with replacement when allow_multapses (NEST's `multapses`), so that a source may connect
/// to a target more than once and k may exceed the number of sources.
struct fixed_in_degree {
    std::uint32_t k = 1;  ///< in-degree, <= number of eligible sources unless allow_multapses
    bool allow_autapses = true;
    bool allow_multapses = false;
    friend bool operator==(const fixed_in_degree&, const fixed_in_degree&) = default;
};

/// Exactly n synapses in all (NEST's `fixed_total_number`, as in the Potjans-Diesmann
/// microcircuit): each joins a uniformly drawn source to a uniformly drawn target, with
/// multapses, so the in-degrees are multinomial (n, 1/targets). The in-degrees are drawn as a
/// chain of binomials from one stream of the projection, the sources of each target from the
/// target's own stream, so the synapses are the same for any thread or rank count.
struct fixed_total_number {
    std::uint64_t n = 0;  ///< total synapses of the projection
    bool allow_autapses = true;
    friend bool operator==(const fixed_total_number&, const fixed_total_number&) = default;
};

/// An explicit list of (source, target) local indices. With a list-valued weight or delay,
/// element i belongs to pair i.
struct from_list {
    std::vector<std::uint32_t> sources;
    std::vector<std::uint32_t> targets;
    friend bool operator==(const from_list&, const from_list&) = default;
};

/// A 2-D convolution with one shared kernel (PyTorch's Conv2d: cross-correlation, no kernel
/// flip). The source population is a C x H x W map in CHW order (neuron c*H*W + y*W + x), the
/// target an out_channels x out_height() x out_width() map in CHW order. Target (o, y, x)
/// receives from source (c, y*stride_h - pad_top + ky*dilation_h, x*stride_w - pad_left +
/// kx*dilation_w) with weight kernel[((o * in_channels/groups + c') * kernel_height + ky) *
/// kernel_width + kx], c = (o / (out_channels/groups)) * in_channels/groups + c'; positions in
/// the padding have no synapse. The synapse_spec's weight must be the constant 1 (the kernel
/// carries the weights) and its delay a constant. Sum and average pooling are convolutions
/// with groups = in_channels = out_channels.
struct convolution {
    std::uint32_t in_channels = 1, in_height = 1, in_width = 1;  ///< source layout CHW
    std::uint32_t out_channels = 1;
    std::uint32_t kernel_height = 1, kernel_width = 1;
    std::uint32_t stride_h = 1, stride_w = 1;
    std::uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    std::uint32_t dilation_h = 1, dilation_w = 1, groups = 1;
    /// OIHW: out_channels x in_channels/groups x kernel_height x kernel_width, row-major.
    std::vector<double> kernel;

    /// Rows of the output map: (in_height + pads - dilation_h*(kernel_height-1) - 1) / stride_h + 1,
    /// or 0 when the dilated kernel does not fit the padded input.
    std::uint32_t out_height() const noexcept {
        return out_extent(in_height, pad_top + pad_bottom, kernel_height, dilation_h, stride_h);
    }
    /// Columns of the output map (as out_height()).
    std::uint32_t out_width() const noexcept {
        return out_extent(in_width, pad_left + pad_right, kernel_width, dilation_w, stride_w);
    }
    friend bool operator==(const convolution&, const convolution&) = default;

private:
    static std::uint32_t out_extent(std::uint32_t in, std::uint32_t pad, std::uint32_t k, std::uint32_t d,
                                    std::uint32_t s) noexcept {
        const std::uint64_t padded = std::uint64_t{in} + pad, span = std::uint64_t{d} * (k == 0 ? 0 : k - 1) + 1;
        if (s == 0 || k == 0 || d == 0 || padded < span) return 0;
        return static_cast<std::uint32_t>((padded - span) / s + 1);
    }
};

/// A gated max-pool (SNN Toolbox's `fir_max`): the source is a C x H x W map (CHW), the target a
/// C x out_height() x out_width() map of windows. Window (c, y, x) covers the source rows
/// y*stride_h - pad_top + [0, pool_h) and columns x*stride_w - pad_left + [0, pool_w) of channel
/// c (cells in the padding do not exist). At every step each source neuron's spike count is
/// accumulated, the current step's spikes included; each window's leader is the source neuron
/// in it with the highest count so far, ties going to the first in row-major order (lowest
/// row, then lowest column). A window passes a spike to its target, with the synapse's weight
/// and delay, exactly when its leader spiked in this step: at most one spike per window and
/// step, and a window whose inputs fire at constant rates passes the highest of them (after the
/// first few steps). The weight and delay must be constants; it cannot be plastic.
struct max_pool_gate {
    std::uint32_t channels = 1, in_height = 1, in_width = 1;  ///< source layout CHW
    std::uint32_t pool_h = 2, pool_w = 2;
    std::uint32_t stride_h = 2, stride_w = 2;
    std::uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;  ///< each < the pool size

    /// Rows of the window map: (in_height + pad_top + pad_bottom - pool_h) / stride_h + 1, or 0
    /// when the window does not fit.
    std::uint32_t out_height() const noexcept { return extent(in_height, pad_top + pad_bottom, pool_h, stride_h); }
    /// Columns of the window map (as out_height()).
    std::uint32_t out_width() const noexcept { return extent(in_width, pad_left + pad_right, pool_w, stride_w); }
    friend bool operator==(const max_pool_gate&, const max_pool_gate&) = default;

private:
    static std::uint32_t extent(std::uint32_t in, std::uint32_t pad, std::uint32_t k, std::uint32_t s) noexcept {
        const std::uint64_t padded = std::uint64_t{in} + pad;
        if (s == 0 || k == 0 || padded < k) return 0;
        return static_cast<std::uint32_t>((padded - k) / s + 1);
    }
};

/// Every connector the engine knows.
using connector = std::variant<all_to_all, one_to_one, fixed_probability, fixed_in_degree, from_list, convolution,
                               max_pool_gate, fixed_total_number>;

/// The connector's name in files: "all_to_all", "one_to_one", "fixed_probability", ...
std::string connector_name(const connector& c);

}  // namespace volley::snn
