// Hand-built temporal networks (see hand_networks.hpp).

#include <volley/temporal/hand_networks.hpp>

#include <volley/temporal/motifs.hpp>

#include <volley/error.hpp>

namespace volley::temporal {

hw::tennlab_network hand_built_network(const task_spec& task, const encoding_options& encoding,
                                       const processor_spec& spec) {
    task.validate();
    encoding.validate();
    network_builder b(spec.network_properties(), spec.proc_params, task.classes, 1);
    const int c = encoding.cycles_per_frame;
    const auto out = b.output(0);
    switch (task.kind) {
    case question::order: {
        const auto latch = add_latch(b, b.input(task.class_a), "A.latch");
        add_coincidence(b, latch, b.input(task.class_b), out, 1);
        break;
    }
    case question::count: add_counter(b, b.input(task.class_a), out, c); break;
    case question::change:
        for (int k = 0; k < task.classes; ++k) {
            const auto d = add_change_detector(b, b.input(k), c, "change" + std::to_string(k));
            b.add_edge(d, out, 1, 1);
        }
        break;
    }
    auto net = b.network();
    net.associated_data["temporal"] = {{"question", to_string(task.kind)},
                                       {"class_a", task.class_a},
                                       {"class_b", task.class_b},
                                       {"cycles_per_frame", c},
                                       {"built_by", "volley::temporal::hand_built_network"}};
    return net;
}

}  // namespace volley::temporal
