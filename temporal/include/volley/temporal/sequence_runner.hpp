#pragma once
// Running a temporal network on a processor, one encoded sequence at a time (docs/temporal.md,
// "Running"): clear_activity, apply the spikes of every frame, run K·C + tail cycles in one run,
// decode output 0's fires, and take the cycles, events and cost of that run.

#include <volley/hw/cost_report.hpp>
#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/decoding.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/processor_spec.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace volley::temporal {

/// Checks that `net` fits `task`: task.classes inputs and at least one output;
/// invalid_parameter naming the network, the field and the value otherwise.
void check_network_shape(const hw::tennlab_network& net, const task_spec& task);

/// What one sequence gave.
struct sequence_outcome {
    std::vector<std::uint8_t> answers;  ///< decoded answers
    std::vector<double> output_fires;   ///< fire cycles of output 0
    std::int64_t cycles = 0;            ///< cycles simulated
    std::int64_t events = 0;            ///< events of every kind in this run
    hw::cost_report cost;               ///< this run's cost (cycles and events of this run only)
};

/// A network loaded on its own processor, run sequence after sequence.
class sequence_runner {
  public:
    /// Makes the processor from `spec` and loads `net` (checked with check_network_shape).
    sequence_runner(const processor_spec& spec, const hw::tennlab_network& net, const task_spec& task,
                    const encoding_options& encoding, const decoding_options& decoding);

    /// Runs one sequence.
    sequence_outcome run(const encoded_sequence& s);

    /// The processor (for costs and state).
    const hw::neuroprocessor& processor() const { return *proc_; }

  private:
    std::unique_ptr<hw::neuroprocessor> proc_;
    std::vector<hw::node_id> inputs_;
    task_spec task_;
    encoding_options encoding_;
    decoding_options decoding_;
};

/// Accuracy and mean costs of a network over a set of sequences.
struct network_score {
    answer_tally tally;
    double accuracy = 0;          ///< tally.accuracy()
    double mean_cycles = 0;       ///< per sequence
    double mean_events = 0;       ///< per sequence, all kinds
    double mean_output_fires = 0; ///< per sequence
    double mean_time_s = 0;       ///< [s] per sequence at the processor's clock
    double mean_energy_j = 0;     ///< [J] per sequence at the processor's per-event energies
    std::int64_t neurons = 0, synapses = 0;  ///< of the network
};

/// Runs `net` on every sequence (one processor, loaded once) and scores it.
network_score evaluate_network(const processor_spec& spec, const hw::tennlab_network& net, const task_spec& task,
                               const encoding_options& encoding, const decoding_options& decoding,
                               const std::vector<encoded_sequence>& sequences);

}  // namespace volley::temporal
