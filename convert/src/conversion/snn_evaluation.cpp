// Evaluating a converted network on the engine (see snn_evaluation.hpp).

#include <volley/convert/snn_evaluation.hpp>

#include <volley/error.hpp>
#include <volley/snn/simulation.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <variant>

#include "conversion/image_workers.hpp"
#include "conversion/input_coding.hpp"

namespace volley::convert {

namespace {

/// What one image gave at each checkpoint.
struct image_outcome {
    std::vector<std::int32_t> prediction;
    std::vector<std::uint64_t> spikes, synops;
    std::vector<std::uint64_t> layer_spikes;  ///< at the largest T
    std::vector<std::uint32_t> output_counts;  ///< at the largest T (keep_output_evidence)
    std::vector<double> output_membrane;       ///< at the largest T (keep_output_evidence)
};

/// A worker's engine: one thread on the CPU (the workers run images side by side); a device
/// backend takes the options' threads (portable) or GPU 0 and runs one image at a time.
snn::context engine_context(const evaluation_options& options) {
    if (options.backend == snn::backend_kind::cpu || options.backend == snn::backend_kind::automatic)
        return {.threads = 1, .backend = snn::backend_kind::cpu};
    if (options.backend == snn::backend_kind::cuda) return {.gpu_id = 0, .backend = snn::backend_kind::cuda};
    return {.threads = options.threads, .backend = options.backend};
}

/// One worker's simulation, reused image after image.
class image_runner {
public:
    image_runner(const converted_snn& net, const evaluation_options& options)
        : net_(net), options_(options),
          sim_(net.network, engine_context(options),
               snn::simulation_options{.dt_ms = 1.0, .seed = options.seed, .max_isa = options.max_isa}),
          out_spikes_(sim_.record_spikes(net.layers.back().population)),
          out_v_(sim_.record_state(net.layers.back().population, "v", 1.0)) {}

    image_outcome run(std::span<const float> image, std::size_t index) {
        sim_.reset();
        if (net_.input) sim_.set_input(*net_.input, volley::snn::step_table_input{detail::input_table(net_, image, index, options_)});
        else sim_.set_input(net_.layers.front().population, volley::snn::constant_input{net_.first_layer_current(image)});
        const auto base = sim_.stats();
        const std::size_t classes = net_.classes();
        std::vector<std::uint32_t> counts(classes, 0);
        std::vector<double> v(classes);
        std::size_t seen = 0;
        std::int64_t done = 0;
        image_outcome out;
        for (const std::int64_t t : options_.timesteps) {
            sim_.run(static_cast<double>(t - done));
            done = t;
            const auto st = sim_.stats();
            const auto& ids = out_spikes_.node_ids();
            for (; seen < ids.size(); ++seen) ++counts[ids[seen]];
            const auto& d = out_v_.data();
            if (d.sample_steps.empty() || d.sample_steps.back() != t)
                throw internal_error("the output membrane was not sampled at step " + std::to_string(t));
            std::copy(d.values.end() - static_cast<std::ptrdiff_t>(classes), d.values.end(), v.begin());
            out.prediction.push_back(read_output(net_, options_.readout, counts, v));
            std::uint64_t spikes = 0;
            for (const auto& layer : net_.layers)
                spikes += st.population_spikes[layer.population.value] - base.population_spikes[layer.population.value];
            out.spikes.push_back(spikes);
            out.synops.push_back(st.synaptic_events - base.synaptic_events);
            if (t == options_.timesteps.back()) {
                for (const auto& layer : net_.layers)
                    out.layer_spikes.push_back(st.population_spikes[layer.population.value] -
                                               base.population_spikes[layer.population.value]);
                if (options_.keep_output_evidence) {
                    out.output_counts = counts;
                    out.output_membrane = v;
                }
            }
        }
        return out;
    }

private:
    const converted_snn& net_;
    const evaluation_options& options_;
    snn::simulation sim_;
    snn::spike_recorder out_spikes_;
    snn::state_recorder out_v_;
};

}  // namespace

std::int32_t spike_count_readout(std::span<const std::uint32_t> counts, std::span<const double> membrane) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < counts.size(); ++i)
        if (counts[i] > counts[best] || (counts[i] == counts[best] && membrane[i] > membrane[best])) best = i;
    return static_cast<std::int32_t>(best);
}

std::int32_t read_output(const converted_snn& net, readout_rule rule, std::span<const std::uint32_t> counts,
                         std::span<const double> membrane) {
    if (rule == readout_rule::spike_count) return spike_count_readout(counts, membrane);
    const auto& out = net.network.at(net.layers.back().population);
    const auto* neuron = std::get_if<snn::discrete_neuron>(&out.model);
    if (!neuron) throw internal_error("the output layer '" + out.name + "' of a converted network is not a discrete_neuron");
    const double theta = neuron->p.v_threshold;
    std::size_t best = 0;
    for (std::size_t i = 1; i < counts.size(); ++i)
        if (counts[i] * theta + membrane[i] > counts[best] * theta + membrane[best]) best = i;
    return static_cast<std::int32_t>(best);
}

std::string to_string(readout_rule r) { return r == readout_rule::spike_count ? "count" : "membrane"; }

readout_rule parse_readout_rule(const std::string& option, const std::string& word) {
    if (word == "count") return readout_rule::spike_count;
    if (word == "membrane") return readout_rule::membrane;
    throw invalid_parameter(option, "readout", word, "expected count or membrane");
}

evaluation_result evaluate_snn(const converted_snn& net, std::span<const float> images,
                               std::span<const std::int32_t> labels, std::span<const std::int32_t> cnn_predictions,
                               const evaluation_options& options) {
    const std::size_t size = net.image_size();
    if (size == 0 || images.size() % size != 0)
        throw invalid_parameter(net.source_file, "images", std::to_string(images.size()) + " values",
                                "not a whole number of " + std::to_string(net.channels) + "x" +
                                    std::to_string(net.height) + "x" + std::to_string(net.width) + " images");
    const std::size_t n = images.size() / size;
    if (!labels.empty() && labels.size() != n)
        throw invalid_parameter("evaluation", "labels", std::to_string(labels.size()),
                                "expected one per image (" + std::to_string(n) + ")");
    if (!cnn_predictions.empty() && cnn_predictions.size() != n)
        throw invalid_parameter("evaluation", "CNN predictions", std::to_string(cnn_predictions.size()),
                                "expected one per image (" + std::to_string(n) + ")");
    if (options.timesteps.empty()) throw invalid_parameter("evaluation", "timesteps", "[]", "give at least one");
    for (std::size_t c = 0; c < options.timesteps.size(); ++c)
        if (options.timesteps[c] < 1 || (c > 0 && options.timesteps[c] <= options.timesteps[c - 1]))
            throw invalid_parameter("evaluation", "timesteps[" + std::to_string(c) + "]",
                                    std::to_string(options.timesteps[c]), "must be >= 1 and ascending");
    if (options.threads < 1)
        throw invalid_parameter("evaluation", "threads", std::to_string(options.threads), "must be >= 1");

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<image_outcome> outcomes(n);
    std::atomic<std::size_t> finished{0};
    const bool device = options.backend == snn::backend_kind::portable || options.backend == snn::backend_kind::cuda;
    detail::run_image_workers(device ? 1 : detail::worker_count(options.threads, n), n, [&](int, auto&& take) {
        image_runner runner(net, options);
        for (std::size_t i; take(i);) {
            outcomes[i] = runner.run(images.subspan(i * size, size), i);
            const std::size_t f = ++finished;
            if (options.progress) options.progress(f, n);
        }
    });

    evaluation_result r;
    r.images = n;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::size_t nc = options.timesteps.size();
    r.predictions.assign(nc, std::vector<std::int32_t>(n));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (options.keep_output_evidence) {
        r.output_counts.resize(n);
        r.output_membrane.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            r.output_counts[i] = std::move(outcomes[i].output_counts);
            r.output_membrane[i] = std::move(outcomes[i].output_membrane);
        }
    }
    for (std::size_t c = 0; c < nc; ++c) {
        checkpoint_result cr;
        cr.timesteps = options.timesteps[c];
        double spikes = 0, synops = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto p = outcomes[i].prediction[c];
            r.predictions[c][i] = p;
            if (!labels.empty()) cr.correct += p == labels[i];
            if (!cnn_predictions.empty()) cr.agree += p == cnn_predictions[i];
            spikes += static_cast<double>(outcomes[i].spikes[c]);
            synops += static_cast<double>(outcomes[i].synops[c]);
        }
        const double dn = static_cast<double>(std::max<std::size_t>(n, 1));
        cr.accuracy = labels.empty() ? nan : static_cast<double>(cr.correct) / dn;
        cr.agreement = cnn_predictions.empty() ? nan : static_cast<double>(cr.agree) / dn;
        cr.spikes_per_image = spikes / dn;
        cr.synops_per_image = synops / dn;
        r.checkpoints.push_back(cr);
    }
    for (std::size_t l = 0; l < net.layers.size(); ++l) {
        double spikes = 0;
        for (const auto& o : outcomes) spikes += static_cast<double>(o.layer_spikes[l]);
        const double denom = static_cast<double>(net.layers[l].size()) * static_cast<double>(std::max<std::size_t>(n, 1)) *
                             static_cast<double>(options.timesteps.back());
        r.layers.push_back({net.layers[l].name, net.layers[l].size(), spikes / denom});
    }
    r.synops_per_s = r.wall_s > 0 ? r.checkpoints.back().synops_per_image * static_cast<double>(n) / r.wall_s : 0;
    return r;
}

}  // namespace volley::convert
