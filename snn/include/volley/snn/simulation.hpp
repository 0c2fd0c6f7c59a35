#pragma once
// The simulation: runtime state built from a network, a context and options. Its state is
// hidden behind a pimpl; the backend is chosen in one factory (snn/src/backends/factory.cpp).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <volley/snn/context.hpp>
#include <volley/snn/network.hpp>
#include <volley/snn/recorders.hpp>

namespace volley::snn {

/// The widest vector instruction set the CPU kernels may use (docs/engine.md, "Tuning"). Every
/// kernel written with intrinsics has a portable twin with the same arithmetic, so the choice
/// changes the speed and never the spikes; a narrower cap is for comparing them.
enum class instruction_set : std::uint8_t {
    best,      ///< the widest the CPU has (AVX-512 F, DQ, VL and BW; else AVX2; else baseline)
    avx2,      ///< at most AVX2
    baseline,  ///< the portable kernels only
};

/// Whether the CPU engine may take LIF steps two at a time (docs/engine.md, "The LIF hot loop").
/// Pairs give the same spikes as single steps.
enum class step_pairing : std::uint8_t {
    automatic,  ///< where every population can and each thread's neurons are past its L2 cache
    off,        ///< never
    always,     ///< wherever every population can, whatever its size (for tests)
};

/// Run settings.
struct simulation_options {
    double dt_ms = 0.1;       ///< time step [ms], > 0
    std::uint64_t seed = 42;  ///< seed of every random stream (connectivity, sources, values)
    /// A network whose engine needs more memory than this is refused when the simulation is
    /// built, before anything large is allocated (invalid_parameter naming the largest
    /// population). 0: the memory available to the process (MemAvailable, the cgroup's limit).
    std::uint64_t max_memory_bytes = 0;
    // Tuning: the speed, never the result.
    instruction_set max_isa = instruction_set::best;  ///< the widest kernels the CPU engine may use
    step_pairing step_pairs = step_pairing::automatic;
};

/// "best", "avx2", "baseline" and back; invalid_parameter naming `option` for another word.
std::string to_string(instruction_set isa);
instruction_set parse_instruction_set(const std::string& option, const std::string& word);
/// "auto", "off", "on" and back; invalid_parameter naming `option` for another word.
std::string to_string(step_pairing pairs);
step_pairing parse_step_pairing(const std::string& option, const std::string& word);

/// Figures about a simulation so far.
struct simulation_stats {
    std::uint64_t neurons = 0;
    std::uint64_t synapses = 0;
    std::uint64_t synapse_table_bytes = 0;  ///< bytes of synapse storage (targets, weights, rows)
    std::uint64_t plastic_synapses = 0;     ///< synapses with an STDP rule (included in synapses)
    std::uint64_t plastic_table_bytes = 0;  ///< their storage with traces (included in synapse_table_bytes)
    std::uint64_t spikes = 0;               ///< every spike emitted, sources included
    std::vector<std::uint64_t> population_spikes;  ///< spikes emitted per population, in network order
    std::uint64_t synaptic_events = 0;      ///< spike deliveries to synapses
    std::int64_t steps = 0;                 ///< steps simulated
    double build_s = 0;                     ///< wall time of the construction [s]
    double sim_s = 0;                       ///< wall time inside run() [s]
    /// wall time of this rank's spike exchange with the other ranks [s] (included in sim_s;
    /// it includes waiting for the slowest rank; 0 in one process)
    double exchange_s = 0;
    int threads = 1;
};

/// The synapses of one projection and their current weights, grouped by target in ascending
/// order and, within a target, in the connector's order.
struct projection_weights {
    std::vector<std::uint32_t> sources;  ///< local index in the source population
    std::vector<std::uint32_t> targets;  ///< local index in the target population
    std::vector<double> weights;         ///< [mV] (the synapse_spec's weight units)
    std::size_t size() const noexcept { return weights.size(); }
};

/// Input a population takes from outside the network, given between runs with
/// simulation::set_input. Which kind a population takes is its model's: a constant current per
/// neuron for discrete_neuron (its i_bias, in the model's current units, from the next step
/// on), a table of values per step for analog_source (values[step][neuron], indexed from step
/// 0: give it before run() or after reset()).
struct constant_input {
    std::vector<double> per_neuron;
};
struct step_table_input {
    std::vector<std::vector<double>> per_step;
};
using population_input = std::variant<constant_input, step_table_input>;
/// "constant current" or "table of values per step".
std::string input_kind_name(const population_input& input);

/// Called every `progress_interval_steps` during run(); returning false stops the run early
/// (after the current step), leaving the simulation valid and resumable.
using progress_callback = std::function<bool(std::int64_t steps_done, std::int64_t steps_total)>;

/// A simulation of one network.
class simulation {
public:
    /// Builds the runtime state. Throws invalid_parameter (e.g. a delay below dt),
    /// unsupported_model or error when the context asks for a backend that is not built.
    simulation(const network& net, const context& ctx, const simulation_options& options);
    ~simulation();
    simulation(simulation&&) noexcept;
    simulation& operator=(simulation&&) noexcept;

    /// Records the spikes of a population, or of the listed neurons of it.
    spike_recorder record_spikes(population_index pop, std::vector<std::uint32_t> neurons = {});

    /// Records a state variable every `interval_ms` (rounded to whole steps, >= 1 step).
    state_recorder record_state(population_index pop, const std::string& variable,
                                double interval_ms, std::vector<std::uint32_t> neurons = {});

    /// The current weights of projection `projection` (its index in network::projections()).
    /// Static projections return their built weights; plastic ones the weights as learnt so
    /// far (docs/plasticity.md). Throws invalid_parameter for an index out of range.
    projection_weights weights(std::size_t projection) const;

    /// Records the weights of a projection every `interval_ms` (rounded to whole steps,
    /// >= 1 step), starting now. Throws invalid_parameter for a bad index or interval.
    weight_recorder record_weights(std::size_t projection, double interval_ms);

    /// Stops a recorder of this simulation: nothing more is recorded into it, and its data stays
    /// with the handle (and its copies). A recorder already stopped, or of another simulation, is
    /// left as it is.
    void stop_recording(const spike_recorder& recorder);
    void stop_recording(const state_recorder& recorder);

    /// Sets the progress callback and how often it is called.
    void on_progress(progress_callback callback, std::int64_t interval_steps);

    /// Advances the simulation by `duration_ms` (rounded to whole steps). Can be called again
    /// to continue. Returns false when the progress callback stopped it early.
    bool run(double duration_ms);

    /// Back to step 0 with the state as built (the same initial values), all pending input
    /// cleared, sources restarted and the recorders' data cleared (they stay attached). Input
    /// given with set_input is kept.
    void reset();

    /// Gives population `pop` input from outside the network (population_input says which
    /// kind each model takes). The network itself is never changed. Throws unsupported_model
    /// when the population's model takes no input of that kind, invalid_parameter for a size
    /// that is not one value per neuron or a value that is not finite or out of range.
    void set_input(population_index pop, population_input input);

    /// Changes the network between runs, from the next step on (PyNN's set() after run()): the
    /// waveform of current stimulus `stimulus` (network::set_current), or the spike trains of a
    /// spike_source population (network::set_spike_times; a train may repeat the spikes it already
    /// sent, but a spike at or before the time already simulated that was not sent is refused,
    /// naming the neuron and the time; reset() replays the trains as last set). The
    /// simulation's copy of the network changes with it, so reset() keeps the change. Throws
    /// invalid_parameter as those do.
    void set_current(std::size_t stimulus, current_waveform waveform);
    void set_spike_times(population_index pop, std::vector<std::vector<double>> spike_times_ms);
    /// Between runs, a parameter (as network::set_parameter takes it) from now on, of a
    /// poisson_source population (each neuron's next interval drawn anew from its own stream:
    /// exact for a Poisson process) or of an ODE model (lif_cond_exp, lif_cond_alpha, izhikevich,
    /// adex, hh: the state is kept). The LIF and discrete models build parameters into their
    /// propagators and kernels: unsupported_model naming the population and the parameter; the
    /// device backends refuse it likewise.
    void set_parameter(population_index pop, const std::string& name, value_spec value);

    /// Writes the whole dynamic state to the HDF5 file `path` (docs/engine.md, "Checkpoints"):
    /// neuron state, synaptic input in flight, plastic weights and traces, random streams,
    /// input tables and biases, and the step. A temporary file is renamed over `path`, so an
    /// existing checkpoint is never left half written. Recorders are not part of it. Throws
    /// io_error.
    void checkpoint(const std::filesystem::path& path) const;
    /// Continues from a checkpoint of the same network (with the same dt and seed) on the same
    /// backend and number of threads: the run that follows gives the spikes and weights the
    /// checkpointed simulation would have given. Recorders stay attached and record from the
    /// restored step on. Throws invalid_parameter naming the mismatch for a checkpoint of
    /// another network, backend or thread count, and io_error or file_format_error for a file
    /// that cannot be read; the simulation is unchanged when it throws.
    void restore(const std::filesystem::path& path);
    /// The current time [ms] and step.
    double time_ms() const noexcept;
    step current_step() const noexcept;

    simulation_stats stats() const;
    const network& model() const noexcept;
    const simulation_options& options() const noexcept;
    /// The context it was built with (threads, backend, its distributed context).
    const context& execution_context() const noexcept;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace volley::snn
