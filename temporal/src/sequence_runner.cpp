// Running temporal networks on a processor (see sequence_runner.hpp).

#include <volley/temporal/sequence_runner.hpp>

#include <volley/error.hpp>

namespace volley::temporal {

void check_network_shape(const hw::tennlab_network& net, const task_spec& task) {
    if (net.inputs.size() != static_cast<std::size_t>(task.classes))
        throw invalid_parameter("temporal network", "inputs", std::to_string(net.inputs.size()),
                                "the " + to_string(task.kind) + " task needs one input per class (" +
                                    std::to_string(task.classes) + ")");
    if (net.outputs.empty())
        throw invalid_parameter("temporal network", "outputs", "0", "the task reads output 0");
}

namespace {

std::int64_t event_total(const hw::cost_report& c) {
    std::int64_t n = 0;
    for (const auto& [kind, count] : c.events) n += count;
    return n;
}

}  // namespace

sequence_runner::sequence_runner(const processor_spec& spec, const hw::tennlab_network& net, const task_spec& task,
                                 const encoding_options& encoding, const decoding_options& decoding)
    : inputs_(net.inputs), task_(task), encoding_(encoding), decoding_(decoding) {
    task.validate();
    encoding.validate();
    decoding.validate();
    check_network_shape(net, task);
    proc_ = spec.make();
    proc_->load_network(net);
    proc_->track_output_events(0);
}

sequence_outcome sequence_runner::run(const encoded_sequence& s) {
    proc_->clear_activity();
    std::vector<hw::spike> spikes;
    spikes.reserve(s.events.size());
    for (const auto& e : s.events) {
        if (e.input < 0 || static_cast<std::size_t>(e.input) >= inputs_.size())
            throw invalid_parameter("encoded sequence", "input", std::to_string(e.input),
                                    "the network has " + std::to_string(inputs_.size()) + " inputs");
        spikes.push_back({inputs_[static_cast<std::size_t>(e.input)], static_cast<double>(e.cycle), 1.0});
    }
    const auto before = proc_->costs();
    proc_->apply_spikes(spikes);
    const auto cycles = decoding_.run_cycles(task_, encoding_.cycles_per_frame);
    proc_->run(static_cast<double>(cycles));
    sequence_outcome out;
    out.output_fires = proc_->output_vector(0);
    out.answers = decode_answers(task_, encoding_.cycles_per_frame, decoding_, out.output_fires);
    out.cost = proc_->costs();
    out.cost.cycles -= before.cycles;
    for (auto& [kind, count] : out.cost.events) {
        const auto it = before.events.find(kind);
        if (it != before.events.end()) count -= it->second;
    }
    out.cycles = out.cost.cycles;
    out.events = event_total(out.cost);
    return out;
}

network_score evaluate_network(const processor_spec& spec, const hw::tennlab_network& net, const task_spec& task,
                               const encoding_options& encoding, const decoding_options& decoding,
                               const std::vector<encoded_sequence>& sequences) {
    sequence_runner runner(spec, net, task, encoding, decoding);
    network_score s;
    for (const auto& seq : sequences) {
        const auto o = runner.run(seq);
        tally_answers(s.tally, o.answers, seq.answers);
        s.mean_cycles += static_cast<double>(o.cycles);
        s.mean_events += static_cast<double>(o.events);
        s.mean_output_fires += static_cast<double>(o.output_fires.size());
        s.mean_time_s += o.cost.time_s();
        s.mean_energy_j += o.cost.energy_j();
        s.neurons = o.cost.neurons;
        s.synapses = o.cost.synapses;
    }
    const double n = sequences.empty() ? 1.0 : static_cast<double>(sequences.size());
    s.mean_cycles /= n;
    s.mean_events /= n;
    s.mean_output_fires /= n;
    s.mean_time_s /= n;
    s.mean_energy_j /= n;
    s.accuracy = s.tally.accuracy();
    if (sequences.empty()) {
        s.neurons = static_cast<std::int64_t>(net.nodes.size());
        s.synapses = static_cast<std::int64_t>(net.edges.size());
    }
    return s;
}

}  // namespace volley::temporal
