// The pipeline's evaluation stage (see evaluation_stage.hpp).

#include <volley/pipeline/evaluation_stage.hpp>

#include <volley/convert/analog_forward.hpp>

#include <chrono>

namespace volley::pipeline {

double fraction_equal(std::span<const std::int32_t> a, std::span<const std::int32_t> b) {
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    return a.empty() ? 0.0 : static_cast<double>(same) / static_cast<double>(a.size());
}

evaluation_stage_result evaluate_model(const conversion_stage_result& model, const convert::image_dataset& test,
                                       const evaluation_stage_options& o) {
    evaluation_stage_result r;
    const auto t0 = std::chrono::steady_clock::now();
    r.cnn_predictions = convert::argmax_rows(convert::analog_forward(model.graph, as_tensor(test), {.threads = o.snn.threads}));
    r.cnn_forward_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::vector<std::int32_t> labels_all(test.labels.begin(), test.labels.end());
    r.cnn_accuracy_all = fraction_equal(r.cnn_predictions, labels_all);

    const auto subset = test.head(o.images);
    r.images = subset.count();
    r.labels.assign(labels_all.begin(), labels_all.begin() + static_cast<std::ptrdiff_t>(r.images));
    const std::span<const std::int32_t> cnn_pred(r.cnn_predictions.data(), r.images);
    r.cnn_accuracy = fraction_equal(cnn_pred, r.labels);
    r.snn = convert::evaluate_snn(model.net, subset.pixels, r.labels, cnn_pred, o.snn);
    return r;
}

}  // namespace volley::pipeline
