// Seeded, balanced sequence generation (see sequence_generator.hpp).

#include <volley/temporal/sequence_generator.hpp>

#include <volley/error.hpp>

#include <algorithm>

#include "splitmix.hpp"

namespace volley::temporal {

namespace {

/// One class sequence for order or count: each frame is a focus class with probability
/// focus_rate (A, or B for order) and one of the others otherwise.
std::vector<std::uint8_t> focused_classes(const task_spec& task, const generator_options& o, detail::splitmix64& rng) {
    const auto classes = static_cast<std::uint32_t>(task.classes);
    std::vector<std::uint8_t> focus{static_cast<std::uint8_t>(task.class_a)};
    if (task.kind == question::order) focus.push_back(static_cast<std::uint8_t>(task.class_b));
    std::vector<std::uint8_t> others;
    for (std::uint32_t c = 0; c < classes; ++c)
        if (std::find(focus.begin(), focus.end(), c) == focus.end()) others.push_back(static_cast<std::uint8_t>(c));
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(task.frames));
    for (auto& l : labels) {
        const double u = rng.unit();
        if (u < o.focus_rate) l = focus[0];
        else if (focus.size() > 1 && u < 2 * o.focus_rate) l = focus[1];
        else l = others[rng.below(static_cast<std::uint32_t>(others.size()))];
    }
    return labels;
}

/// One class sequence for change: frame 0 uniform, then repeat with probability repeat_rate,
/// else one of the other classes uniformly.
std::vector<std::uint8_t> change_classes(const task_spec& task, const generator_options& o, detail::splitmix64& rng) {
    const auto classes = static_cast<std::uint32_t>(task.classes);
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(task.frames));
    labels[0] = static_cast<std::uint8_t>(rng.below(classes));
    for (std::size_t k = 1; k < labels.size(); ++k) {
        if (rng.unit() < o.repeat_rate) {
            labels[k] = labels[k - 1];
        } else {
            const auto c = rng.below(classes - 1);  // skip the previous class
            labels[k] = static_cast<std::uint8_t>(c >= labels[k - 1] ? c + 1 : c);
        }
    }
    return labels;
}

}  // namespace

std::vector<sequence> generate_sequences(const task_spec& task, std::span<const std::uint8_t> set_labels,
                                         const generator_options& options) {
    task.validate();
    const std::string object = "sequence generator";
    if (!(options.focus_rate > 0 && options.focus_rate <= 0.5))
        throw invalid_parameter(object, "focus_rate", std::to_string(options.focus_rate), "must be in (0, 0.5]");
    if (!(options.repeat_rate >= 0 && options.repeat_rate <= 1))
        throw invalid_parameter(object, "repeat_rate", std::to_string(options.repeat_rate), "must be in [0, 1]");
    if (options.max_tries < 1)
        throw invalid_parameter(object, "max_tries", std::to_string(options.max_tries), "must be >= 1");
    std::vector<std::vector<std::uint32_t>> by_class(static_cast<std::size_t>(task.classes));
    for (std::size_t i = 0; i < set_labels.size(); ++i) {
        if (set_labels[i] >= task.classes)
            throw invalid_parameter(object, "label of image " + std::to_string(i), std::to_string(set_labels[i]),
                                    "must be < classes (" + std::to_string(task.classes) + ")");
        by_class[set_labels[i]].push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t c = 0; c < by_class.size(); ++c)
        if (by_class[c].empty())
            throw invalid_parameter(object, "class", std::to_string(c), "has no image in the set");

    std::vector<sequence> out(options.count);
    for (std::size_t i = 0; i < options.count; ++i) {
        detail::splitmix64 rng(options.seed, i);
        auto& s = out[i];
        if (task.kind == question::change) {
            s.labels = change_classes(task, options, rng);
        } else {
            const std::uint8_t want = i % 2 == 0;
            int tries = 0;
            for (;; ++tries) {
                if (tries == options.max_tries)
                    throw invalid_parameter(object, "max_tries", std::to_string(options.max_tries),
                                            "no sequence with answer " + std::to_string(want) + " found for sequence " +
                                                std::to_string(i) + " (raise it or change focus_rate)");
                s.labels = focused_classes(task, options, rng);
                if (ground_truth(task, s.labels)[0] == want) break;
            }
        }
        for (const auto l : s.labels) {
            const auto& pool = by_class[l];
            s.images.push_back(pool[rng.below(static_cast<std::uint32_t>(pool.size()))]);
        }
        s.answers = ground_truth(task, s.labels);
    }
    return out;
}

std::vector<std::uint32_t> images_used(const std::vector<sequence>& sequences) {
    std::vector<std::uint32_t> out;
    for (const auto& s : sequences) out.insert(out.end(), s.images.begin(), s.images.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace volley::temporal
