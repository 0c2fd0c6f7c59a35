// The device backends' engine (see device_engine.hpp).

#include "backends/device/device_engine.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <chrono>

#include <omp.h>

#include "backends/cpu/discrete_population.hpp"
#include "backends/cpu/population_kernel.hpp"
#include "backends/device/device_network_build.hpp"

namespace volley::snn::detail {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

device_engine::device_engine(const network& net, const simulation_options& options, std::string backend,
                             core_maker make, int threads)
    : options_(options), backend_(std::move(backend)), make_(std::move(make)), threads_(threads) {
    build(net);
}

void device_engine::build(const network& net) {
    const auto t0 = std::chrono::steady_clock::now();
    const device_network d = describe_for_device(net, options_, backend_);
    core_ = make_(d);
    first_.assign(1, 0);
    sizes_.clear();
    info_.clear();
    for (const auto& p : d.populations) {
        sizes_.push_back(p.n);
        first_.push_back(first_.back() + p.n);
        population_info in{p.name, p.model, p.scaled, p.v_rest.empty() ? 0.0 : p.v_rest[0], p.rescale_period, {}};
        in.decay_power[0] = p.decay_power[0], in.decay_power[1] = p.decay_power[1];
        info_.push_back(std::move(in));
    }
    synapses_ = d.synapses;
    table_bytes_ = d.table_bytes;
    population_spikes_.assign(d.populations.size(), 0);
    spikes_ = 0;
    step_ = 0;
    build_s_ = seconds_since(t0);
}

void device_engine::add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) {
    data->first_neuron = first_[data->pop.value];
    sinks_.push_back({std::move(data), std::move(mask)});
}

void device_engine::add_state_recorder(std::shared_ptr<state_data> data, population_index pop) {
    const auto& in = info_[pop.value];
    if (in.model == device_model::poisson || in.model == device_model::spike_array || in.model == device_model::analog)
        throw_no_state(in.name, data->variable);
    const bool synaptic = in.model != device_model::lif_delta;
    const int column = in.model == device_model::discrete   ? (data->variable == "v"       ? 0
                                                               : data->variable == "i_syn" ? 1
                                                                                           : -1)
                       : data->variable == "v_mv"             ? 0
                       : synaptic && data->variable == "i_syn_e_mv" ? 1
                       : synaptic && data->variable == "i_syn_i_mv" ? 2
                                                                    : -1;
    if (column < 0) throw unknown_name("state variable", data->variable, "population '" + in.name + "'");
    state_sinks_.push_back({std::move(data), pop.value, column, step_});
    sample_state(state_sinks_.back());
}

void device_engine::remove_spike_recorder(const spike_data* data) {
    std::erase_if(sinks_, [&](const spike_sink& s) { return s.data.get() == data; });
}

void device_engine::remove_state_recorder(const state_data* data) {
    std::erase_if(state_sinks_, [&](const state_sink& s) { return s.data.get() == data; });
}

void device_engine::sample_state(const state_sink& sink) {
    const auto& in = info_[sink.pop];
    auto& d = *sink.data;
    core_->copy_column(sink.pop, sink.column, column_);
    double offset = 0, gain = 1;
    if (in.scaled && sink.column == 0) {
        offset = in.v_rest;  // stored relative to v_rest
    } else if (in.scaled) {  // stored divided by p11^(step - s0), s0 the last rescaling
        const std::int64_t s0 = step_ == 0 ? 0 : (step_ - 1) / in.rescale_period * in.rescale_period;
        gain = in.decay_power[sink.column - 1][static_cast<std::size_t>(step_ - s0)];
    }
    for (const std::uint32_t i : d.node_ids) d.values.push_back(column_[i] * gain + offset);
    d.sample_steps.push_back(step_);
}

std::int64_t device_engine::run(std::int64_t steps, const progress_callback& progress, std::int64_t interval) {
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t done = 0;
    device_spike_log log;
    // The portable core's parallel regions take this thread's OpenMP setting: the context's,
    // for the length of the run.
    struct omp_threads_guard {
        int saved = omp_get_max_threads();
        bool active;
        omp_threads_guard(bool on, int n) : active(on) {
            if (active) omp_set_num_threads(n);
        }
        ~omp_threads_guard() {
            if (active) omp_set_num_threads(saved);
        }
    } guard(backend_ == "portable", threads_);
    while (done < steps) {
        // Up to the next progress call or state sample, whichever comes first.
        std::int64_t n = steps - done;
        if (progress && interval > 0) n = std::min(n, interval - done % interval);
        for (const auto& sink : state_sinks_)
            n = std::min(n, sink.data->interval_steps - (step_ - sink.start) % sink.data->interval_steps);
        log.steps.clear();
        log.ids.clear();
        core_->run(step_, n, log);
        step_ += n;
        done += n;
        for (std::size_t p = 0; p < log.ids.size(); ++p) {
            spikes_ += log.ids[p].size();
            population_spikes_[p] += log.ids[p].size();
        }
        for (auto& sink : sinks_) {
            auto& d = *sink.data;
            const auto& ids = log.ids[d.pop.value];
            const auto& st = log.steps[d.pop.value];
            for (std::size_t k = 0; k < ids.size(); ++k) {
                if (!sink.mask.empty() && !sink.mask[ids[k]]) continue;
                d.node_ids.push_back(ids[k]);
                d.steps.push_back(st[k]);
            }
        }
        for (const auto& sink : state_sinks_)
            if ((step_ - sink.start) % sink.data->interval_steps == 0) sample_state(sink);
        if (progress && interval > 0 && done % interval == 0 && !progress(done, steps)) break;
    }
    for (auto& sink : sinks_) sink.data->steps_recorded += done;
    sim_s_ += seconds_since(t0);
    return done;
}

void device_engine::reset(const network&) {
    // The network is the one built (a simulation never changes it): its state goes back to
    // step 0 in place, and discrete populations keep the i_bias set_input gave them, as on the CPU.
    core_->restart();
    step_ = 0;
    spikes_ = 0;
    std::fill(population_spikes_.begin(), population_spikes_.end(), 0);
    sim_s_ = 0;
    for (auto& sink : sinks_) {
        sink.data->node_ids.clear();
        sink.data->steps.clear();
        sink.data->steps_recorded = 0;
    }
    for (auto& sink : state_sinks_) {
        sink.data->sample_steps.clear();
        sink.data->values.clear();
        sink.start = 0;
        sample_state(sink);
    }
}

void device_engine::set_input(population_index pop, const population_input& input) {
    const auto& in = info_[pop.value];
    if (const auto* c = std::get_if<constant_input>(&input)) {  // simulation::set_input checked the model
        discrete_population::check_bias(in.name, sizes_[pop.value], c->per_neuron);
        core_->set_bias(pop.value, c->per_neuron);
        return;
    }
    std::vector<double> flat;
    for (const auto& row : std::get<step_table_input>(input).per_step) flat.insert(flat.end(), row.begin(), row.end());
    core_->set_analog_values(pop.value, flat);
}

void device_engine::refresh_inputs(const network& net, population_index pop) {
    const auto& p = net.at(pop);
    if (std::holds_alternative<spike_source>(p.model))
        throw unsupported_model("spike_source", "population '" + p.name + "': new spike times between runs on the " +
                                                    backend_ + " backend (the cpu backend takes them)");
    if (std::holds_alternative<poisson_source>(p.model))
        throw unsupported_model("poisson_source", "population '" + p.name + "': new parameters between runs on the " +
                                                      backend_ + " backend (the cpu backend takes them)");
    const auto old = core_->currents(pop.value);
    if (!old) return;  // no stimuli: simulation::set_current names only existing ones
    core_->set_currents(pop.value, currents_now(*old, net, pop.value, options_), step_);
}

simulation_stats device_engine::stats() const {
    simulation_stats st;
    st.neurons = first_.back();
    st.synapses = synapses_;
    st.synapse_table_bytes = table_bytes_;
    st.spikes = spikes_;
    st.population_spikes = population_spikes_;
    st.synaptic_events = core_->synaptic_events();
    st.steps = step_;
    st.build_s = build_s_;
    st.sim_s = sim_s_;
    st.threads = threads_;
    return st;
}

projection_weights device_engine::weights(std::size_t projection) const {
    throw invalid_parameter("projection " + std::to_string(projection), "plasticity", "none",
                            "the " + backend_ + " backend runs static synapses only");
}

void device_engine::visit_state(state_archive&) {
    throw unsupported_model("checkpoint", "the " + backend_ + " backend does not save its state yet; use the cpu backend");
}

}  // namespace volley::snn::detail
