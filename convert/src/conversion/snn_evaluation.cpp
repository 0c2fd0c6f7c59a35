// Evaluating a converted network on the engine (see snn_evaluation.hpp).

#include <volley/convert/snn_evaluation.hpp>

#include <volley/error.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/thread_limit.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <variant>

#include "conversion/batched_network.hpp"
#include "conversion/image_workers.hpp"
#include "conversion/input_coding.hpp"

namespace volley::convert {

namespace {

/// What one image gave: its prediction at each checkpoint, and its output evidence.
struct image_outcome {
    std::vector<std::int32_t> prediction;
    std::vector<std::uint32_t> output_counts;  ///< at the largest T (keep_output_evidence)
    std::vector<double> output_membrane;       ///< at the largest T (keep_output_evidence)
};

/// Spikes of the IF layers and synaptic events of the images a runner ran, summed: at each
/// checkpoint, and per layer at the largest T.
struct run_totals {
    std::vector<std::uint64_t> spikes, synops, layer_spikes;
    run_totals(std::size_t checkpoints, std::size_t layers)
        : spikes(checkpoints, 0), synops(checkpoints, 0), layer_spikes(layers, 0) {}
    void add(const run_totals& o) {
        for (std::size_t c = 0; c < spikes.size(); ++c) spikes[c] += o.spikes[c], synops[c] += o.synops[c];
        for (std::size_t l = 0; l < layer_spikes.size(); ++l) layer_spikes[l] += o.layer_spikes[l];
    }
};

/// A worker's engine: one thread on the CPU (the workers run images side by side); a device
/// backend takes the options' threads (portable) or GPU 0.
snn::context engine_context(const evaluation_options& options) {
    if (options.backend == snn::backend_kind::cpu || options.backend == snn::backend_kind::automatic)
        return {.threads = 1, .backend = snn::backend_kind::cpu};
    if (options.backend == snn::backend_kind::cuda) return {.gpu_id = 0, .backend = snn::backend_kind::cuda};
    return {.threads = options.threads, .backend = options.backend};
}

/// One worker's simulation of `images` images at once (a batched network when more than one:
/// batched_network.hpp), reused batch after batch. Image b of a batch owns output neurons
/// [b·classes, (b + 1)·classes).
class batch_runner {
public:
    batch_runner(const converted_snn& net, const evaluation_options& options, std::uint32_t images)
        : net_(net), options_(options), images_(images),
          sim_(images == 1 ? net.network : detail::batched_network(net.network, images), engine_context(options),
               snn::simulation_options{.dt_ms = 1.0, .seed = options.seed, .max_isa = options.max_isa}),
          out_spikes_(sim_.record_spikes(net.layers.back().population)),
          out_v_(sim_.record_state(net.layers.back().population, "v", 1.0)) {}

    /// Runs the runner's images first, first + 1, ... of `all` (each image_size values), writing
    /// their outcomes and adding their counts to `totals`.
    void run(std::span<const float> all, std::size_t first, std::span<image_outcome> outcomes, run_totals& totals) {
        const std::size_t size = net_.image_size(), classes = net_.classes();
        sim_.reset();
        if (net_.input) {
            std::vector<std::vector<double>> table;
            for (std::uint32_t b = 0; b < images_; ++b) {
                const auto one = detail::input_table(net_, all.subspan((first + b) * size, size), first + b, options_);
                if (table.size() < one.size()) table.resize(one.size(), std::vector<double>(images_ * size, 0.0));
                for (std::size_t t = 0; t < one.size(); ++t) std::copy(one[t].begin(), one[t].end(), table[t].begin() + b * size);
            }
            for (auto& row : table) row.resize(images_ * size, 0.0);
            sim_.set_input(*net_.input, snn::step_table_input{std::move(table)});
        } else {
            std::vector<double> current;
            for (std::uint32_t b = 0; b < images_; ++b) {
                const auto one = net_.first_layer_current(all.subspan((first + b) * size, size));
                current.insert(current.end(), one.begin(), one.end());
            }
            sim_.set_input(net_.layers.front().population, snn::constant_input{std::move(current)});
        }
        const auto base = sim_.stats();
        std::vector<std::uint32_t> counts(images_ * classes, 0);
        std::vector<double> v(images_ * classes);
        std::size_t seen = 0;
        std::int64_t done = 0;
        for (std::size_t c = 0; c < options_.timesteps.size(); ++c) {
            const std::int64_t t = options_.timesteps[c];
            sim_.run(static_cast<double>(t - done));
            done = t;
            const auto st = sim_.stats();
            const auto& ids = out_spikes_.node_ids();
            for (; seen < ids.size(); ++seen) ++counts[ids[seen]];
            const auto& d = out_v_.data();
            if (d.sample_steps.empty() || d.sample_steps.back() != t)
                throw internal_error("the output membrane was not sampled at step " + std::to_string(t));
            std::copy(d.values.end() - static_cast<std::ptrdiff_t>(v.size()), d.values.end(), v.begin());
            for (std::uint32_t b = 0; b < images_; ++b)
                outcomes[b].prediction.push_back(read_output(net_, options_.readout, std::span(counts).subspan(b * classes, classes),
                                                             std::span(v).subspan(b * classes, classes)));
            for (std::size_t l = 0; l < net_.layers.size(); ++l) {
                const auto pop = net_.layers[l].population.value;
                const std::uint64_t spikes = st.population_spikes[pop] - base.population_spikes[pop];
                totals.spikes[c] += spikes;
                if (c + 1 == options_.timesteps.size()) totals.layer_spikes[l] += spikes;
            }
            totals.synops[c] += st.synaptic_events - base.synaptic_events;
        }
        if (options_.keep_output_evidence)
            for (std::uint32_t b = 0; b < images_; ++b) {
                outcomes[b].output_counts.assign(counts.begin() + b * classes, counts.begin() + (b + 1) * classes);
                outcomes[b].output_membrane.assign(v.begin() + b * classes, v.begin() + (b + 1) * classes);
            }
    }

private:
    const converted_snn& net_;
    const evaluation_options& options_;
    std::uint32_t images_;
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
    check_thread_count("evaluation", options.threads, /*zero_allowed=*/false);

    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t nc = options.timesteps.size(), nl = net.layers.size();
    const bool device = options.backend == snn::backend_kind::portable || options.backend == snn::backend_kind::cuda;
    const std::uint32_t batch = static_cast<std::uint32_t>(std::clamp<std::size_t>(
        options.batch > 0 ? options.batch : device ? default_device_batch : 1, 1, std::max<std::size_t>(n, 1)));
    const std::size_t batches = (n + batch - 1) / batch;
    std::vector<image_outcome> outcomes(n);
    run_totals totals(nc, nl);
    std::mutex totals_mutex;
    std::atomic<std::size_t> finished{0};
    detail::run_image_workers(device ? 1 : detail::worker_count(options.threads, batches), batches, [&](int, auto&& take) {
        std::unique_ptr<batch_runner> full, rest;  // the last batch may be smaller
        run_totals mine(nc, nl);
        for (std::size_t k; take(k);) {
            const std::size_t first = k * batch, count = std::min<std::size_t>(batch, n - first);
            auto& runner = count == batch ? full : rest;
            if (!runner) runner = std::make_unique<batch_runner>(net, options, static_cast<std::uint32_t>(count));
            runner->run(images, first, std::span(outcomes).subspan(first, count), mine);
            const std::size_t f = finished += count;
            if (options.progress) options.progress(f, n);
        }
        const std::lock_guard lock(totals_mutex);
        totals.add(mine);
    });

    evaluation_result r;
    r.images = n;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
    const double dn = static_cast<double>(std::max<std::size_t>(n, 1));
    for (std::size_t c = 0; c < nc; ++c) {
        checkpoint_result cr;
        cr.timesteps = options.timesteps[c];
        for (std::size_t i = 0; i < n; ++i) {
            const auto p = outcomes[i].prediction[c];
            r.predictions[c][i] = p;
            if (!labels.empty()) cr.correct += p == labels[i];
            if (!cnn_predictions.empty()) cr.agree += p == cnn_predictions[i];
        }
        cr.accuracy = labels.empty() ? nan : static_cast<double>(cr.correct) / dn;
        cr.agreement = cnn_predictions.empty() ? nan : static_cast<double>(cr.agree) / dn;
        cr.spikes_per_image = static_cast<double>(totals.spikes[c]) / dn;
        cr.synops_per_image = static_cast<double>(totals.synops[c]) / dn;
        r.checkpoints.push_back(cr);
    }
    for (std::size_t l = 0; l < nl; ++l) {
        const double denom = static_cast<double>(net.layers[l].size()) * dn * static_cast<double>(options.timesteps.back());
        r.layers.push_back({net.layers[l].name, net.layers[l].size(), static_cast<double>(totals.layer_spikes[l]) / denom});
    }
    r.synops_per_s = r.wall_s > 0 ? r.checkpoints.back().synops_per_image * static_cast<double>(n) / r.wall_s : 0;
    return r;
}

}  // namespace volley::convert
