// Per-image class evidence (see frame_features.hpp).

#include <volley/temporal/frame_features.hpp>

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <algorithm>
#include <variant>

namespace volley::temporal {

std::span<const float> feature_table::row(std::size_t image) const {
    if (!has(image))
        throw invalid_parameter("feature table", "image", std::to_string(image), "has no features");
    return {evidence.data() + image * classes, classes};
}

std::int32_t feature_table::predicted(std::size_t image) const {
    if (!has(image))
        throw invalid_parameter("feature table", "image", std::to_string(image), "has no features");
    return prediction[image];
}

feature_table oracle_features(std::span<const std::uint8_t> labels, std::size_t classes) {
    feature_table t;
    t.classes = classes;
    t.evidence.assign(labels.size() * classes, 0.0f);
    t.prediction.resize(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] >= classes)
            throw invalid_parameter("oracle features", "label of image " + std::to_string(i),
                                    std::to_string(labels[i]), "must be < " + std::to_string(classes));
        t.evidence[i * classes + labels[i]] = 1.0f;
        t.prediction[i] = labels[i];
    }
    return t;
}

feature_table cnn_features(const convert::converted_snn& net, const convert::image_dataset& set,
                           std::span<const std::uint32_t> images, const cnn_feature_options& options) {
    const std::string object = "CNN features";
    if (options.timesteps < 1)
        throw invalid_parameter(object, "timesteps", std::to_string(options.timesteps), "must be >= 1");
    if (net.image_size() != set.image_size())
        throw invalid_parameter(object, "image size", std::to_string(set.image_size()),
                                "the network takes " + std::to_string(net.image_size()) + " values per image");
    std::vector<std::uint32_t> unique(images.begin(), images.end());
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    if (!unique.empty() && unique.back() >= set.count())
        throw invalid_parameter(object, "image", std::to_string(unique.back()),
                                "outside the set (" + std::to_string(set.count()) + " images)");
    const std::size_t classes = net.classes();
    double theta = 1;
    if (options.evidence == cnn_evidence::membrane) {
        const auto& out = net.network.at(net.layers.back().population);
        const auto* neuron = std::get_if<snn::discrete_neuron>(&out.model);
        if (!neuron) throw invalid_parameter(object, "output layer", out.name, "is not a discrete_neuron");
        theta = neuron->p.v_threshold;
    }

    std::vector<float> pixels;
    pixels.reserve(unique.size() * set.image_size());
    for (const auto i : unique) pixels.insert(pixels.end(), set.image(i), set.image(i) + set.image_size());
    convert::evaluation_options eo;
    eo.timesteps = {options.timesteps};
    eo.threads = options.threads;
    eo.seed = options.seed;
    eo.readout = options.readout;
    eo.keep_output_evidence = true;
    const auto r = convert::evaluate_snn(net, pixels, {}, {}, eo);

    feature_table t;
    t.classes = classes;
    t.evidence.assign(set.count() * classes, 0.0f);
    t.prediction.assign(set.count(), -1);
    for (std::size_t j = 0; j < unique.size(); ++j) {
        const std::size_t i = unique[j];
        for (std::size_t k = 0; k < classes; ++k) {
            const double counts = r.output_counts[j][k];
            t.evidence[i * classes + k] = static_cast<float>(
                options.evidence == cnn_evidence::spike_count ? counts : counts * theta + r.output_membrane[j][k]);
        }
        t.prediction[i] = r.predictions[0][j];
    }
    return t;
}

}  // namespace volley::temporal
