#pragma once
// The ideal bound (docs/temporal.md, "Ideal bound"): exact temporal logic applied to each
// frame's predicted class. It is what a perfect temporal network could reach behind a given
// front end; on oracle features it is 100%.

#include <volley/temporal/decoding.hpp>
#include <volley/temporal/frame_features.hpp>
#include <volley/temporal/sequence_generator.hpp>

#include <vector>

namespace volley::temporal {

/// ground_truth of the predicted classes of each sequence's frames, compared with the true
/// answers (order/count per sequence, change per frame).
answer_tally ideal_bound(const task_spec& task, const std::vector<sequence>& sequences, const feature_table& features);

}  // namespace volley::temporal
