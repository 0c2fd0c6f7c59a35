// The ideal bound (see ideal_bound.hpp).

#include <volley/temporal/ideal_bound.hpp>

#include <volley/error.hpp>

namespace volley::temporal {

answer_tally ideal_bound(const task_spec& task, const std::vector<sequence>& sequences, const feature_table& features) {
    answer_tally t;
    std::vector<std::uint8_t> predicted;
    for (const auto& s : sequences) {
        predicted.clear();
        for (const auto i : s.images) {
            const auto p = features.predicted(i);
            if (p >= task.classes)
                throw invalid_parameter("ideal bound", "predicted class of image " + std::to_string(i),
                                        std::to_string(p), "must be < classes (" + std::to_string(task.classes) + ")");
            predicted.push_back(static_cast<std::uint8_t>(p));
        }
        tally_answers(t, ground_truth(task, predicted), ground_truth(task, s.labels));
    }
    return t;
}

}  // namespace volley::temporal
