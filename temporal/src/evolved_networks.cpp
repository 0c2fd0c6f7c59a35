// The networks EONS evolved from random networks, compiled in (see evolved_networks.hpp).

#include <volley/temporal/evolved_networks.hpp>

#include <volley/error.hpp>
#include <volley/json_text.hpp>

#include <string>

#include "builtin_networks.hpp"

namespace volley::temporal {

hw::tennlab_network evolved_network(const task_spec& task, const encoding_options& encoding) {
    const task_spec made{.kind = task.kind};
    const std::string object = "evolved '" + to_string(task.kind) + "' network";
    auto same = [&](const char* field, int asked, int evolved) {
        if (asked != evolved)
            throw invalid_parameter(object, field, std::to_string(asked),
                                    "the cached network was evolved for " + std::to_string(evolved) +
                                        " (evolve one for this setting with volley evolve)");
    };
    if (task.kind != question::change) same("class_a", task.class_a, made.class_a);
    if (task.kind == question::order) same("class_b", task.class_b, made.class_b);
    same("frames", task.frames, made.frames);
    same("classes", task.classes, made.classes);
    same("cycles_per_frame", encoding.cycles_per_frame, encoding_options{}.cycles_per_frame);
    if (encoding.mode != encoding_mode::winner)
        throw invalid_parameter(object, "encoding", to_string(encoding.mode),
                                "the cached network was evolved for the winner code");
    for (const auto& [name, text] : detail::builtin_networks)
        if (name == to_string(task.kind))
            return hw::tennlab_network::from_json(parse_json_text(text, "built-in " + object), "built-in " + object);
    throw unknown_name("question", to_string(task.kind), "evolved networks");
}

}  // namespace volley::temporal
