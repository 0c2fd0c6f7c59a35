#pragma once
// The device side of the device backends: a core that owns a network's state in device memory
// and advances it. One source (device_core_impl.hpp) is compiled twice: by nvcc for the GPU
// (device_core_cuda.cu) and by the host compiler for Thrust's OpenMP system
// (device_core_portable.cpp, the "portable" backend). This header includes nothing heavy.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/device/device_network.hpp"

namespace volley::snn::detail {

/// Spikes copied back from the device: per population, the stamped step and the neuron of each
/// spike, steps ascending and neurons ascending within a step (the CPU engine's order).
struct device_spike_log {
    std::vector<std::vector<std::int64_t>> steps;
    std::vector<std::vector<std::uint32_t>> ids;
};

class device_core {
public:
    virtual ~device_core() = default;
    /// Advances steps [s0, s0 + n) (s0 is the step the core is at) and appends their spikes to
    /// `log`, copied back once per epoch (the event queues' depth).
    virtual void run(std::int64_t s0, std::int64_t n, device_spike_log& log) = 0;
    /// Synaptic events delivered so far.
    virtual std::uint64_t synaptic_events() const = 0;
    /// Copies a population's stored column back: 0 v, 1 the excitatory current (a discrete
    /// population's i_syn), 2 the inhibitory one (as stored: the caller converts the scaled
    /// form, as the CPU does).
    virtual void copy_column(std::uint32_t pop, int column, std::vector<double>& out) const = 0;
    /// Returns every population and gate to its state at step 0; a discrete population keeps
    /// the i_bias set_bias gave it, an analog source its table (the CPU engine's reset).
    virtual void restart() = 0;
    /// Sets a discrete population's i_bias (one value per neuron, already checked).
    virtual void set_bias(std::uint32_t pop, const std::vector<double>& bias) = 0;
    /// A LIF population's current stimuli (null when it has none) and, after set_currents, the
    /// new ones from step `s` on (the initial currents of restart() too).
    virtual std::shared_ptr<const device_currents> currents(std::uint32_t pop) const = 0;
    virtual void set_currents(std::uint32_t pop, std::shared_ptr<const device_currents> c, std::int64_t s) = 0;
    /// Replaces an analog source's table: values[step * n + neuron] (already checked).
    virtual void set_analog_values(std::uint32_t pop, const std::vector<double>& values) = 0;
};

/// The portable core on Thrust's OpenMP system (any machine).
std::unique_ptr<device_core> make_portable_core(const device_network& net);
/// The CUDA core on device `gpu_id` (builds with CUDA only); throws volley::error when the
/// device does not exist.
std::unique_ptr<device_core> make_cuda_core(const device_network& net, int gpu_id);
/// The CUDA devices of this machine, one line each; empty with `why_none` set when there are
/// none (builds with CUDA only).
std::vector<std::string> cuda_device_list(std::string& why_none);

}  // namespace volley::snn::detail
