// The simulation facade: a pimpl over the backend chosen by the factory.

#include <volley/error.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/simulation.hpp>

#include <algorithm>
#include <cmath>

#include "backends/engine.hpp"
#include "build/connectivity.hpp"
#include "model/format_number.hpp"
#include "model/spike_time_step.hpp"
#include "simulation_impl.hpp"

namespace volley::snn {

namespace {

std::vector<std::uint32_t> checked_subset(std::vector<std::uint32_t> neurons, const population& p, const char* what) {
    for (std::uint32_t i : neurons)
        if (i >= p.size)
            throw invalid_parameter(std::string(what) + " of population '" + p.name + "'", "neuron", std::to_string(i),
                                    "out of range for size " + std::to_string(p.size));
    return neurons;
}

}  // namespace

simulation::simulation(const network& net, const context& ctx, const simulation_options& options)
    : impl_(std::make_unique<impl>()) {
    if (!std::isfinite(options.dt_ms) || options.dt_ms <= 0)
        throw invalid_parameter("simulation", "dt_ms", std::to_string(options.dt_ms), "must be finite and > 0");
    impl_->net = net;
    impl_->options = options;
    impl_->where = ctx;
    impl_->engine = detail::make_engine(impl_->net, ctx, options);
}

simulation::~simulation() = default;
simulation::simulation(simulation&&) noexcept = default;
simulation& simulation::operator=(simulation&&) noexcept = default;

spike_recorder simulation::record_spikes(population_index pop, std::vector<std::uint32_t> neurons) {
    const auto& p = impl_->net.at(pop);
    neurons = checked_subset(std::move(neurons), p, "spike recorder");
    auto d = std::make_shared<spike_data>();
    d->population = p.name;
    d->pop = pop;
    d->population_size = p.size;
    d->dt_ms = impl_->options.dt_ms;
    std::vector<std::uint8_t> mask;
    if (!neurons.empty()) {
        mask.assign(p.size, 0);
        for (std::uint32_t i : neurons) mask[i] = 1;
        d->recorded_neurons = static_cast<std::uint32_t>(std::count(mask.begin(), mask.end(), 1));
    } else {
        d->recorded_neurons = p.size;
    }
    if (const auto* src = std::get_if<spike_source>(&p.model)) {
        d->source_times_ms = src->spike_times_ms;
        impl_->source_sinks.push_back(d);
    }
    impl_->engine->add_spike_recorder(d, std::move(mask));
    return spike_recorder(d);
}

state_recorder simulation::record_state(population_index pop, const std::string& variable, double interval_ms,
                                        std::vector<std::uint32_t> neurons) {
    const auto& p = impl_->net.at(pop);
    neurons = checked_subset(std::move(neurons), p, "state recorder");
    if (!std::isfinite(interval_ms) || interval_ms <= 0)
        throw invalid_parameter("state recorder of population '" + p.name + "'", "interval_ms",
                                std::to_string(interval_ms), "must be finite and > 0");
    auto d = std::make_shared<state_data>();
    d->population = p.name;
    d->variable = variable;
    d->dt_ms = impl_->options.dt_ms;
    d->interval_steps = std::max<std::int64_t>(1, std::llround(interval_ms / impl_->options.dt_ms));
    if (neurons.empty())
        for (std::uint32_t i = 0; i < p.size; ++i) neurons.push_back(i);
    d->node_ids = std::move(neurons);
    impl_->engine->add_state_recorder(d, pop);
    return state_recorder(d);
}

void simulation::stop_recording(const spike_recorder& recorder) {
    const spike_data* d = &recorder.data();
    std::erase_if(impl_->source_sinks, [&](const std::shared_ptr<spike_data>& s) { return s.get() == d; });
    impl_->engine->remove_spike_recorder(d);
}

void simulation::stop_recording(const state_recorder& recorder) { impl_->engine->remove_state_recorder(&recorder.data()); }

void simulation::on_progress(progress_callback callback, std::int64_t interval_steps) {
    impl_->progress = std::move(callback);
    impl_->progress_interval = interval_steps;
}

std::int64_t duration_steps(double duration_ms, double dt_ms, const std::string& object, const std::string& parameter) {
    if (!std::isfinite(duration_ms) || duration_ms < 0)
        throw invalid_parameter(object, parameter, detail::format_number(duration_ms), "must be finite and >= 0 ms");
    const double steps = std::nearbyint(duration_ms / dt_ms);
    if (!(steps <= static_cast<double>(max_run_steps)))
        throw invalid_parameter(object, parameter, detail::format_number(duration_ms),
                                "is more than 2^62 steps of dt = " + detail::format_number(dt_ms) + " ms");
    return static_cast<std::int64_t>(steps);
}

void check_run_steps(std::int64_t steps, const std::string& object, const std::string& parameter, std::int64_t extra) {
    if (steps < 0) throw invalid_parameter(object, parameter, std::to_string(steps), "must be >= 0");
    if (steps > max_run_steps - extra)
        throw invalid_parameter(object, parameter, std::to_string(steps),
                                "is more than 2^62" + (extra ? " - " + std::to_string(extra) : std::string()) +
                                    " steps, the longest run");
}

bool simulation::run(double duration_ms) {
    const auto steps = duration_steps(duration_ms, impl_->options.dt_ms, "simulation");
    auto& eng = *impl_->engine;
    if (impl_->weight_sinks.empty()) return eng.run(steps, impl_->progress, impl_->progress_interval) == steps;
    // Weight samples are taken between runs of the engine, which stop at each sample step. The
    // engine reports every step, so that the callback keeps its period across the pieces.
    std::int64_t done = 0;
    const std::int64_t every = impl_->progress_interval;
    while (done < steps) {
        const std::int64_t now = eng.current_step();
        std::int64_t chunk = steps - done;
        for (const auto& d : impl_->weight_sinks)
            chunk = std::min(chunk, d->interval_steps - (now - d->start_step) % d->interval_steps);
        progress_callback progress;
        if (impl_->progress && every > 0)
            progress = [&, offset = done](std::int64_t d, std::int64_t) {
                return (offset + d) % every != 0 || impl_->progress(offset + d, steps);
            };
        const std::int64_t got = eng.run(chunk, progress, 1);
        done += got;
        for (const auto& d : impl_->weight_sinks)
            if ((eng.current_step() - d->start_step) % d->interval_steps == 0) impl_->sample_weights(*d);
        if (got < chunk) return false;
    }
    return true;
}

projection_weights simulation::weights(std::size_t projection) const {
    const auto& projs = impl_->net.projections();
    if (projection >= projs.size())
        throw invalid_parameter("simulation", "projection", std::to_string(projection),
                                "no such projection (the network has " + std::to_string(projs.size()) + ")");
    return impl_->weights(projection);
}

weight_recorder simulation::record_weights(std::size_t projection, double interval_ms) {
    auto w = weights(projection);  // checks the index
    const auto& proj = impl_->net.projections()[projection];
    if (!std::isfinite(interval_ms) || interval_ms <= 0)
        throw invalid_parameter("weight recorder of projection " + std::to_string(projection), "interval_ms",
                                std::to_string(interval_ms), "must be finite and > 0");
    auto d = std::make_shared<weight_data>();
    d->projection = projection;
    d->source = impl_->net.at(proj.source).name;
    d->target = impl_->net.at(proj.target).name;
    d->sources = std::move(w.sources);
    d->targets = std::move(w.targets);
    d->dt_ms = impl_->options.dt_ms;
    d->interval_steps = std::max<std::int64_t>(1, std::llround(interval_ms / impl_->options.dt_ms));
    d->start_step = impl_->engine->current_step();
    d->sample_steps.push_back(d->start_step);
    d->values = std::move(w.weights);
    impl_->weight_sinks.push_back(d);
    return weight_recorder(d);
}

void simulation::reset() {
    impl_->engine->reset(impl_->net);  // plastic weights return to their built values
    for (const auto& [pop, values] : impl_->table_inputs) impl_->engine->set_input({pop}, step_table_input{values});
    for (const auto& d : impl_->source_sinks)  // the trains replay as last set
        d->source_times_ms = std::get<spike_source>(impl_->net.at(d->pop).model).spike_times_ms;
    for (const auto& d : impl_->weight_sinks) {
        d->sample_steps.clear();
        d->values.clear();
        d->start_step = 0;
        impl_->sample_weights(*d);
    }
}

std::string input_kind_name(const population_input& input) {
    return std::holds_alternative<constant_input>(input) ? "constant current" : "table of values per step";
}

void simulation::set_current(std::size_t stimulus, current_waveform waveform) {
    auto& net = impl_->net;
    if (stimulus >= net.stimuli().size()) return net.set_current(stimulus, std::move(waveform));  // throws
    const auto target = net.stimuli()[stimulus].target;
    auto old = net.stimuli()[stimulus].waveform;
    net.set_current(stimulus, std::move(waveform));
    try {
        impl_->engine->refresh_inputs(net, target);
    } catch (...) {
        net.set_current(stimulus, std::move(old));
        throw;
    }
}

void simulation::set_spike_times(population_index pop, std::vector<std::vector<double>> spike_times_ms) {
    auto& net = impl_->net;
    const auto& p = net.at(pop);
    const auto* src = std::get_if<spike_source>(&p.model);
    auto old = src ? src->spike_times_ms : std::vector<std::vector<double>>{};
    // A spike array sends a spike at the end of the step that holds its time, step k for
    // (k - 1)·dt < t <= k·dt, during step k - 1; so after `done` steps the first that can still
    // be sent is step done + 1. A new train may repeat spikes already sent (a train given whole
    // again) but not add one in the past.
    const std::int64_t done = impl_->engine->current_step();
    const double dt = impl_->options.dt_ms, now_ms = static_cast<double>(done) * dt;
    auto step_of = [dt](double t) { return detail::spike_time_step(t, dt); };
    for (std::size_t i = 0; i < spike_times_ms.size(); ++i) {
        std::vector<double> sent;
        if (i < old.size())
            for (double t : old[i])
                if (step_of(t) <= done) sent.push_back(t);
        std::sort(sent.begin(), sent.end());
        for (double t : spike_times_ms[i])
            if (std::isfinite(t) && step_of(t) <= done && !std::binary_search(sent.begin(), sent.end(), t))
                throw invalid_parameter("population '" + p.name + "' neuron " + std::to_string(i), "spike_times_ms",
                                        detail::format_number(t),
                                        "is not after the time already simulated (" + detail::format_number(now_ms) +
                                            " ms) and was not sent: that spike can no longer be sent");
    }
    // The recorders keep the times already sent and take the new ones after them.
    std::vector<std::vector<double>> history;
    if (spike_times_ms.size() == old.size())
        for (std::size_t i = 0; i < old.size(); ++i) {
            auto& h = history.emplace_back();
            for (double t : old[i])
                if (step_of(t) <= done) h.push_back(t);
            for (double t : spike_times_ms[i])
                if (step_of(t) > done) h.push_back(t);
        }
    net.set_spike_times(pop, std::move(spike_times_ms));
    try {
        impl_->engine->refresh_inputs(net, pop);
    } catch (...) {
        net.set_spike_times(pop, std::move(old));
        throw;
    }
    for (const auto& d : impl_->source_sinks)
        if (d->pop == pop) d->source_times_ms = history;
}

void simulation::set_parameter(population_index pop, const std::string& name, value_spec value) {
    const auto& p = impl_->net.at(pop);
    if (!std::holds_alternative<poisson_source>(p.model) && !is_ode_model(p.model))
        throw unsupported_model(model_name(p.model), "population '" + p.name + "': " + name +
                                                         " changed between runs (the parameters of poisson_source and "
                                                         "of the ODE models lif_cond_exp, lif_cond_alpha, izhikevich, "
                                                         "adex and hh can change once built; build a new simulation "
                                                         "for the others)");
    network changed = impl_->net;  // the engine takes it whole or not at all
    changed.set_parameter(pop, name, std::move(value));
    impl_->engine->refresh_inputs(changed, pop);
    impl_->net = std::move(changed);
}

void simulation::set_input(population_index pop, population_input input) {
    const auto& p = impl_->net.at(pop);
    // Each model takes one kind: discrete_neuron a constant current (i_bias), analog_source a table.
    const bool takes = std::holds_alternative<constant_input>(input) ? std::holds_alternative<discrete_neuron>(p.model)
                                                                      : std::holds_alternative<analog_source>(p.model);
    if (!takes)
        throw unsupported_model(model_name(p.model), "set_input of population '" + p.name + "': a " +
                                                         input_kind_name(input) +
                                                         " is input for discrete_neuron (constant current) or "
                                                         "analog_source (table of values per step) populations");
    if (auto* table = std::get_if<step_table_input>(&input)) {
        const std::string object = "population '" + p.name + "'";
        for (std::size_t s = 0; s < table->per_step.size(); ++s)
            if (table->per_step[s].size() != p.size)
                throw invalid_parameter(object, "values[" + std::to_string(s) + "]",
                                        "a row of " + std::to_string(table->per_step[s].size()) + " values",
                                        "expected one value per neuron (" + std::to_string(p.size) + ")");
        check_analog_values(table->per_step, object);
        impl_->engine->set_input(pop, input);
        // The network is never changed by running it: reset() puts the table back from here.
        impl_->table_inputs[pop.value] = std::move(table->per_step);
        return;
    }
    impl_->engine->set_input(pop, input);  // checks the size and the values; reset() keeps them
}

double simulation::time_ms() const noexcept {
    return static_cast<double>(impl_->engine->current_step()) * impl_->options.dt_ms;
}
step simulation::current_step() const noexcept { return {impl_->engine->current_step()}; }
simulation_stats simulation::stats() const { return impl_->engine->stats(); }
const network& simulation::model() const noexcept { return impl_->net; }
const simulation_options& simulation::options() const noexcept { return impl_->options; }
const context& simulation::execution_context() const noexcept { return impl_->where; }

std::string to_string(instruction_set isa) {
    switch (isa) {
        case instruction_set::avx2: return "avx2";
        case instruction_set::baseline: return "baseline";
        default: return "best";
    }
}

instruction_set parse_instruction_set(const std::string& option, const std::string& word) {
    for (auto isa : {instruction_set::best, instruction_set::avx2, instruction_set::baseline})
        if (word == to_string(isa)) return isa;
    throw invalid_parameter(option, "instruction set", word, "expected best, avx2 or baseline");
}

std::string to_string(step_pairing pairs) {
    switch (pairs) {
        case step_pairing::off: return "off";
        case step_pairing::always: return "on";
        default: return "auto";
    }
}

step_pairing parse_step_pairing(const std::string& option, const std::string& word) {
    for (auto p : {step_pairing::automatic, step_pairing::off, step_pairing::always})
        if (word == to_string(p)) return p;
    throw invalid_parameter(option, "step pairs", word, "expected auto, off or on");
}

}  // namespace volley::snn
