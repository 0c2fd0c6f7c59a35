#pragma once
// The engine of the device backends ("portable" on Thrust's OpenMP system, "cuda" on a GPU):
// host bookkeeping around a device_core (recorders, progress, statistics). It runs what
// describe_for_device accepts and refuses the rest when it is built.

#include <functional>
#include <memory>
#include <string>

#include "backends/device/device_core.hpp"
#include "backends/engine.hpp"

namespace volley::snn::detail {

class device_engine final : public engine {
public:
    /// Makes the core of a described network (make_portable_core or make_cuda_core).
    using core_maker = std::function<std::unique_ptr<device_core>(const device_network&)>;
    /// `backend` ("portable" or "cuda") names it in errors and checkpoints.
    device_engine(const network& net, const simulation_options& options, std::string backend, core_maker make,
                  int threads);

    void add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) override;
    void add_state_recorder(std::shared_ptr<state_data> data, population_index pop) override;
    void remove_spike_recorder(const spike_data* data) override;
    void remove_state_recorder(const state_data* data) override;
    std::int64_t run(std::int64_t steps, const progress_callback& progress, std::int64_t progress_interval) override;
    std::int64_t current_step() const override { return step_; }
    void reset(const network& net) override;
    void set_input(population_index pop, const population_input& input) override;
    void refresh_inputs(const network& net, population_index pop) override;
    simulation_stats stats() const override;
    projection_weights weights(std::size_t projection) const override;
    void visit_state(state_archive& a) override;
    std::string backend_name() const override { return backend_; }
    int threads() const override { return threads_; }
    int ranks() const override { return 1; }

private:
    struct spike_sink {
        std::shared_ptr<spike_data> data;
        std::vector<std::uint8_t> mask;
    };
    struct state_sink {
        std::shared_ptr<state_data> data;
        std::uint32_t pop;
        int column;  ///< device_core::copy_column's
        std::int64_t start;
    };
    /// What the host keeps of a population to name it and to convert its sampled state.
    struct population_info {
        std::string name;
        device_model model;
        bool scaled = false;
        double v_rest = 0;
        std::int64_t rescale_period = 1;
        std::vector<double> decay_power[2];
    };
    void build(const network& net);
    /// Samples a state sink at step_: the CPU's lif_population::sample_state arithmetic.
    void sample_state(const state_sink& sink);

    simulation_options options_;
    std::string backend_;
    core_maker make_;
    int threads_ = 1;
    std::unique_ptr<device_core> core_;
    std::vector<std::uint32_t> first_, sizes_;
    std::vector<spike_sink> sinks_;
    std::vector<state_sink> state_sinks_;
    std::vector<population_info> info_;
    std::vector<double> column_;  ///< a column copied back for sampling
    std::int64_t step_ = 0;
    std::uint64_t synapses_ = 0, table_bytes_ = 0, spikes_ = 0;
    std::vector<std::uint64_t> population_spikes_;
    double build_s_ = 0, sim_s_ = 0;
};

}  // namespace volley::snn::detail
