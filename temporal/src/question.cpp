// Questions and their ground truth (see question.hpp).

#include <volley/temporal/question.hpp>

#include <volley/error.hpp>

namespace volley::temporal {

std::string to_string(question q) {
    switch (q) {
    case question::order: return "order";
    case question::change: return "change";
    case question::count: return "count";
    }
    throw internal_error("temporal: question value " + std::to_string(static_cast<int>(q)));
}

question parse_question(const std::string& name) {
    if (name == "order") return question::order;
    if (name == "change") return question::change;
    if (name == "count") return question::count;
    throw unknown_name("question", name, "temporal task (expected order, change or count)");
}

void task_spec::validate() const {
    const std::string object = "temporal task " + to_string(kind);
    if (frames < 2) throw invalid_parameter(object, "frames", std::to_string(frames), "must be >= 2");
    if (classes < 2) throw invalid_parameter(object, "classes", std::to_string(classes), "must be >= 2");
    if (kind != question::change && (class_a < 0 || class_a >= classes))
        throw invalid_parameter(object, "class_a", std::to_string(class_a),
                                "must be in [0, " + std::to_string(classes) + ")");
    if (kind == question::order) {
        if (class_b < 0 || class_b >= classes)
            throw invalid_parameter(object, "class_b", std::to_string(class_b),
                                    "must be in [0, " + std::to_string(classes) + ")");
        if (class_a == class_b)
            throw invalid_parameter(object, "class_b", std::to_string(class_b),
                                    "must differ from class_a (ask count for a repeated class)");
    }
}

std::size_t task_spec::answers_per_sequence() const {
    return kind == question::change ? static_cast<std::size_t>(frames - 1) : 1;
}

std::vector<std::uint8_t> ground_truth(const task_spec& task, std::span<const std::uint8_t> labels) {
    if (labels.size() != static_cast<std::size_t>(task.frames))
        throw invalid_parameter("temporal ground truth", "labels", std::to_string(labels.size()),
                                "expected one per frame (" + std::to_string(task.frames) + ")");
    switch (task.kind) {
    case question::order: {
        bool seen_a = false;
        for (const auto l : labels) {
            if (seen_a && l == task.class_b) return {1};
            if (l == task.class_a) seen_a = true;
        }
        return {0};
    }
    case question::count: {
        int n = 0;
        for (const auto l : labels) n += l == task.class_a;
        return {static_cast<std::uint8_t>(n >= 2)};
    }
    case question::change: {
        std::vector<std::uint8_t> out;
        for (std::size_t k = 1; k < labels.size(); ++k) out.push_back(labels[k] != labels[k - 1]);
        return out;
    }
    }
    throw internal_error("temporal: question value " + std::to_string(static_cast<int>(task.kind)));
}

}  // namespace volley::temporal
