// Forward and backward passes over thread slices of a batch, with an ordered gradient reduction.

#include <volley/convert/softmax_cross_entropy.hpp>
#include <volley/convert/trainer.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace volley::convert {

/// One slice's buffers: activations of every layer, two gradient buffers, layer scratch and the
/// slice's accumulated parameter gradients.
struct data_parallel_trainer::workspace {
    std::vector<tensor<float>> activations;  // [0] input, [l + 1] output of layer l
    tensor<float> grad_a, grad_b;
    std::vector<layer_scratch<float>> scratch;
    std::vector<std::vector<float>> grads;
    std::vector<std::uint8_t> labels;
    double loss = 0;
    std::size_t correct = 0;
};

data_parallel_trainer::data_parallel_trainer(sequential_model<float>& model, int threads,
                                             std::size_t micro_batch)
    : model_(model), threads_(threads), micro_batch_(micro_batch) {
    if (threads < 0)
        throw invalid_parameter("trainer", "threads", std::to_string(threads), "must be >= 0");
    if (micro_batch == 0) throw invalid_parameter("trainer", "micro_batch", "0", "must be >= 1");
    if (threads_ == 0) threads_ = omp_get_max_threads();
    for (std::size_t l = 0; l < model_.size(); ++l) {
        first_param_.push_back(params_.size());
        for (auto& p : model_.at(l).parameters()) params_.push_back(&p);
    }
    first_param_.push_back(params_.size());
    for (const auto* p : params_) grads_.emplace_back(p->values.size(), 0.0f);
    for (int t = 0; t < threads_; ++t) {
        auto ws = std::make_unique<workspace>();
        ws->activations.resize(model_.size() + 1);
        ws->scratch.resize(model_.size());
        ws->grads = grads_;
        workspaces_.push_back(std::move(ws));
    }
}

data_parallel_trainer::~data_parallel_trainer() = default;

step_result data_parallel_trainer::compute_gradients(const image_dataset& data,
                                                     std::span<const std::uint32_t> batch,
                                                     std::uint64_t seed, std::uint64_t step) {
    const std::size_t total = batch.size();
    const std::size_t slices = static_cast<std::size_t>(threads_);
    const std::size_t image_size = data.image_size();
    const shape4 image_shape = model_.input_shape();
    const double scale = total > 0 ? 1.0 / static_cast<double>(total) : 0.0;
    const std::size_t layers = model_.size();

#pragma omp parallel num_threads(threads_)
    {
        const auto team = static_cast<std::size_t>(omp_get_num_threads());
        for (std::size_t s = static_cast<std::size_t>(omp_get_thread_num()); s < slices; s += team) {
            workspace& ws = *workspaces_[s];
            ws.loss = 0;
            ws.correct = 0;
            for (auto& g : ws.grads) std::fill(g.begin(), g.end(), 0.0f);
            const std::size_t begin = s * total / slices, end = (s + 1) * total / slices;
            for (std::size_t mb = begin; mb < end; mb += micro_batch_) {
                const std::size_t n = std::min(micro_batch_, end - mb);
                auto& x = ws.activations[0];
                x.resize(image_shape.with_batch(n));
                ws.labels.resize(n);
                for (std::size_t i = 0; i < n; ++i) {
                    std::memcpy(x.image(i), data.image(batch[mb + i]), image_size * sizeof(float));
                    ws.labels[i] = data.labels[batch[mb + i]];
                }
                const pass_context ctx{run_mode::training, seed, step, mb};
                for (std::size_t l = 0; l < layers; ++l)
                    model_.at(l).forward(ws.activations[l], ws.activations[l + 1], ws.scratch[l], ctx);
                ws.loss += softmax_cross_entropy(ws.activations[layers], ws.labels, scale,
                                                 &ws.grad_a, &ws.correct);
                for (std::size_t l = layers; l-- > 0;) {
                    std::span<std::vector<float>> pg(ws.grads.data() + first_param_[l],
                                                     first_param_[l + 1] - first_param_[l]);
                    model_.at(l).backward(ws.activations[l], ws.activations[l + 1], ws.grad_a,
                                          l > 0 ? &ws.grad_b : nullptr, pg, ws.scratch[l], ctx);
                    std::swap(ws.grad_a, ws.grad_b);
                }
            }
        }
#pragma omp barrier
        for (std::size_t k = 0; k < grads_.size(); ++k) {
            auto& g = grads_[k];
#pragma omp for schedule(static)
            for (std::size_t i = 0; i < g.size(); ++i) {
                float sum = workspaces_[0]->grads[k][i];
                for (std::size_t s = 1; s < slices; ++s) sum += workspaces_[s]->grads[k][i];
                g[i] = sum;
            }
        }
    }
    step_result r;
    for (std::size_t s = 0; s < slices; ++s) {
        r.loss += workspaces_[s]->loss;
        r.correct += workspaces_[s]->correct;
    }
    r.loss *= scale;
    std::vector<const layer_scratch<float>*> scratches(slices);
    for (std::size_t l = 0; l < layers; ++l) {
        for (std::size_t s = 0; s < slices; ++s) scratches[s] = &workspaces_[s]->scratch[l];
        model_.at(l).finish_training_step(scratches);
    }
    return r;
}

step_result data_parallel_trainer::train_step(const image_dataset& data,
                                              std::span<const std::uint32_t> batch, optimizer& opt,
                                              double learning_rate, std::uint64_t seed,
                                              std::uint64_t step) {
    const step_result r = compute_gradients(data, batch, seed, step);
    if (std::isfinite(r.loss)) opt.step(params_, grads_, learning_rate);
    return r;
}

double data_parallel_trainer::evaluate(const image_dataset& data) {
    const std::size_t chunk = 256, count = data.count();
    const std::size_t chunks = (count + chunk - 1) / chunk;
    std::size_t correct = 0;
#pragma omp parallel num_threads(threads_) reduction(+ : correct)
    {
        tensor<float> a, b;
        layer_scratch<float> scratch;
        const pass_context ctx{};
#pragma omp for schedule(static)
        for (std::size_t c = 0; c < chunks; ++c) {
            const std::size_t begin = c * chunk, n = std::min(chunk, count - begin);
            a.resize(model_.input_shape().with_batch(n));
            std::memcpy(a.values.data(), data.image(begin), n * data.image_size() * sizeof(float));
            for (std::size_t l = 0; l < model_.size(); ++l) {
                model_.at(l).forward(a, b, scratch, ctx);
                std::swap(a, b);
            }
            const std::size_t k = a.shape.per_image();
            for (std::size_t i = 0; i < n; ++i) {
                const float* z = a.image(i);
                correct += static_cast<std::size_t>(std::max_element(z, z + k) - z) ==
                           data.labels[begin + i];
            }
        }
    }
    return count > 0 ? static_cast<double>(correct) / static_cast<double>(count) : 0.0;
}

}  // namespace volley::convert
