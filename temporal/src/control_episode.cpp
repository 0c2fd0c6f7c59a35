// Cart-pole episodes (see control_episode.hpp).

#include <volley/temporal/control_episode.hpp>

#include <volley/error.hpp>

namespace volley::temporal {

network_agent::network_agent(const processor_spec& spec, const hw::tennlab_network& net, const cartpole_setting& setting,
                             const std::string& object)
    : net_(net), setting_(&setting) {
    setting.check_network(net, object);
    proc_ = spec.make();
    proc_->load_network(net_);
    outputs_.resize(static_cast<std::size_t>(setting.outputs()));
}

void network_agent::reset() { proc_->clear_activity(); }

void network_agent::track_all_neurons() {
    for (const auto id : proc_->neuron_ids()) proc_->track_neuron_events(id);
}

int network_agent::act(const std::vector<double>& observation, std::vector<int>* inputs, std::vector<int>* outputs) {
    const auto& c = setting_->coding;
    const std::vector<int> counts = encode_observation(observation, c);
    proc_->apply_spikes(observation_spikes(counts, net_.inputs, c.spike_interval));
    proc_->run(static_cast<double>(c.timesteps_per_observation));
    for (std::size_t o = 0; o < outputs_.size(); ++o) outputs_[o] = proc_->output_count(static_cast<int>(o));
    if (inputs) *inputs = counts;
    if (outputs) *outputs = outputs_;
    return winner_takes_all(outputs_);
}

episode_result run_cartpole_episode(network_agent& agent, const cartpole_setting& setting, const cartpole_state& start,
                                    const episode_options& o) {
    const int steps = o.max_steps > 0 ? o.max_steps : setting.episode_steps;
    if (o.raster_steps > 0) agent.track_all_neurons();
    agent.reset();
    episode_result r;
    cartpole_state s = start;
    for (int k = 0; k < steps; ++k) {
        episode_step rec;
        const bool keep = o.keep_trace;
        const int a = agent.act(setting.observe(s), keep ? &rec.input_counts : nullptr, keep ? &rec.output_counts : nullptr);
        if (keep) {
            rec.state = s;
            rec.action = a;
            if (k < o.raster_steps) rec.fires = agent.processor().neuron_vectors();
            r.trace.push_back(std::move(rec));
        }
        s = cartpole_step(s, force_of(setting.actions[static_cast<std::size_t>(a)], setting.physics), setting.physics);
        r.last = s;
        if (cartpole_failed(s, setting.physics)) break;
        ++r.steps;
    }
    r.survived = r.steps == steps;
    return r;
}

}  // namespace volley::temporal
