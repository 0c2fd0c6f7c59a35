// Hand-built temporal networks (see hand_networks.hpp).

#include <volley/temporal/hand_networks.hpp>

#include <volley/temporal/motifs.hpp>

#include <volley/error.hpp>

#include <algorithm>

namespace volley::temporal {

hw::tennlab_network hand_built_network(const task_spec& task, const encoding_options& encoding,
                                       const processor_spec& spec, const motif_timing& timing) {
    task.validate();
    encoding.validate();
    network_builder b(spec.network_properties(), spec.proc_params, task.classes, 1, timing.time_unit);
    const int u = timing.time_unit;
    const int c = encoding.cycles_per_frame;
    const auto out = b.output(0);
    switch (task.kind) {
    case question::order: {
        const auto latch = add_latch(b, b.input(task.class_a), "A.latch");
        add_coincidence(b, latch, b.input(task.class_b), out, u);
        break;
    }
    case question::count: add_counter(b, b.input(task.class_a), out, c); break;
    case question::change:
        for (int k = 0; k < task.classes; ++k) {
            const auto d = add_change_detector(b, b.input(k), c, "change" + std::to_string(k));
            b.add_edge(d, out, 1, timing.report_delay);
        }
        break;
    }
    auto net = b.network();
    net.associated_data["temporal"] = {{"question", to_string(task.kind)},
                                       {"class_a", task.class_a},
                                       {"class_b", task.class_b},
                                       {"cycles_per_frame", c},
                                       {"time_unit", u},
                                       {"report_delay", timing.report_delay},
                                       {"built_by", "volley::temporal::hand_built_network"}};
    return net;
}

motif_timing hand_built_timing(const task_spec& task, const encoding_options& encoding, const processor_spec& spec) {
    encoding.validate();
    const int units = std::max(1, encoding.cycles_per_frame / 2);
    const auto pack = spec.network_properties();
    const auto* delay = pack.find_edge("Delay");
    const int max_delay = delay != nullptr ? static_cast<int>(delay->max_value) : 1;
    // Order and count have no report synapse: only the unit varies (latency u + 1).
    const int reports = task.kind == question::change ? max_delay : 1;
    for (int latency = 2; latency <= units + reports; ++latency)
        for (int u = 1; u <= units && u < latency; ++u) {
            const motif_timing t{u, latency - u};
            if (t.report_delay > reports) continue;
            try {
                spec.make()->load_network(hand_built_network(task, encoding, spec, t));  // the grid routes here
                return t;
            } catch (const unroutable_network&) {
                if (latency == units + reports && u == units) throw;
            }
        }
    throw unroutable_network("hand-built " + to_string(task.kind) + " network", "no timing within the delays");
}

decoding_options hand_built_decoding(const motif_timing& timing) {
    decoding_options d;
    d.answer_latency = timing.change_latency();
    d.tail_cycles = std::max(d.tail_cycles, d.answer_latency);
    d.validate();
    return d;
}

}  // namespace volley::temporal
