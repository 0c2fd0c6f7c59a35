// Forward and backward passes over slices of a batch, with an ordered gradient reduction, on
// this process's threads and, with a gradient_share, across processes.

#include <volley/convert/softmax_cross_entropy.hpp>
#include <volley/convert/trainer.hpp>
#include <volley/thread_limit.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
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
                                             std::size_t micro_batch, std::size_t slices,
                                             gradient_share share)
    : model_(model), threads_(threads), micro_batch_(micro_batch), share_(std::move(share)) {
    check_thread_count("trainer", threads);
    if (micro_batch == 0) throw invalid_parameter("trainer", "micro_batch", "0", "must be >= 1");
    if (share_.ranks < 1 || share_.rank < 0 || share_.rank >= share_.ranks)
        throw invalid_parameter("trainer", "share", std::to_string(share_.rank) + " of " + std::to_string(share_.ranks),
                                "needs ranks >= 1 and 0 <= rank < ranks");
    if (share_.ranks > 1 && !share_.gather)
        throw invalid_parameter("trainer", "share.gather", "empty", "needed when ranks > 1");
    if (threads_ == 0) threads_ = omp_get_max_threads();
    const auto ranks = static_cast<std::size_t>(share_.ranks), rank = static_cast<std::size_t>(share_.rank);
    slices_ = slices > 0 ? slices : static_cast<std::size_t>(threads_) * ranks;
    first_slice_ = slices_ * rank / ranks;
    const std::size_t local = slices_ * (rank + 1) / ranks - first_slice_;
    for (std::size_t l = 0; l < model_.size(); ++l) {
        first_param_.push_back(params_.size());
        for (auto& p : model_.at(l).parameters()) params_.push_back(&p);
    }
    first_param_.push_back(params_.size());
    for (const auto* p : params_) grads_.emplace_back(p->values.size(), 0.0f);
    for (std::size_t t = 0; t < local; ++t) {
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
    const std::size_t slices = slices_, local = workspaces_.size();
    const std::size_t image_size = data.image_size();
    const shape4 image_shape = model_.input_shape();
    const double scale = total > 0 ? 1.0 / static_cast<double>(total) : 0.0;
    const std::size_t layers = model_.size();

#pragma omp parallel num_threads(threads_)
    {
        const auto team = static_cast<std::size_t>(omp_get_num_threads());
        for (std::size_t ls = static_cast<std::size_t>(omp_get_thread_num()); ls < local; ls += team) {
            workspace& ws = *workspaces_[ls];
            ws.loss = 0;
            ws.correct = 0;
            for (auto& g : ws.grads) std::fill(g.begin(), g.end(), 0.0f);
            for (auto& sc : ws.scratch) sc.step_statistics.clear();
            const std::size_t s = first_slice_ + ls;
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
        if (share_.ranks == 1) {
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
    }
    step_result r = share_.ranks == 1 ? step_result{} : combine_shared(layers);
    if (share_.ranks == 1) {
        for (std::size_t s = 0; s < slices; ++s) {
            r.loss += workspaces_[s]->loss;
            r.correct += workspaces_[s]->correct;
        }
        std::vector<const layer_scratch<float>*> scratches(slices);
        for (std::size_t l = 0; l < layers; ++l) {
            for (std::size_t s = 0; s < slices; ++s) scratches[s] = &workspaces_[s]->scratch[l];
            model_.at(l).finish_training_step(scratches);
        }
    }
    r.loss *= scale;
    return r;
}

// Every slice of every process as one record of doubles: [length, loss, correct, each
// parameter's gradients, then per layer its step statistics' count and values]. Floats convert to
// double and back exactly, so the sums below are those of one process with the same slices.
step_result data_parallel_trainer::combine_shared(std::size_t layers) {
    std::vector<double> mine;
    for (const auto& ws : workspaces_) {
        const std::size_t at = mine.size();
        mine.push_back(0);
        mine.push_back(ws->loss);
        mine.push_back(static_cast<double>(ws->correct));
        for (const auto& g : ws->grads) mine.insert(mine.end(), g.begin(), g.end());
        for (const auto& sc : ws->scratch) {
            mine.push_back(static_cast<double>(sc.step_statistics.size()));
            mine.insert(mine.end(), sc.step_statistics.begin(), sc.step_statistics.end());
        }
        mine[at] = static_cast<double>(mine.size() - at);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> all = share_.gather(mine);
    exchange_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    auto bad = [&](const std::string& why) {
        return error("trainer: the gradient exchange of " + std::to_string(share_.ranks) + " processes " + why);
    };
    std::vector<std::size_t> record;  // start of each slice's record
    for (std::size_t at = 0; at < all.size();) {
        const double n = all[at];
        if (!(n >= 3) || at + static_cast<std::size_t>(n) > all.size()) throw bad("returned a broken record");
        record.push_back(at);
        at += static_cast<std::size_t>(n);
    }
    if (record.size() != slices_)
        throw bad("returned " + std::to_string(record.size()) + " slices, not " + std::to_string(slices_));
    step_result r;
    std::vector<std::size_t> cursor(slices_);
    for (std::size_t s = 0; s < slices_; ++s) {
        r.loss += all[record[s] + 1];
        r.correct += static_cast<std::size_t>(all[record[s] + 2]);
        cursor[s] = record[s] + 3;
    }
    for (auto& g : grads_) {
        for (std::size_t i = 0; i < g.size(); ++i) {
            float sum = static_cast<float>(all[cursor[0] + i]);
            for (std::size_t s = 1; s < slices_; ++s) sum += static_cast<float>(all[cursor[s] + i]);
            g[i] = sum;
        }
        for (auto& c : cursor) c += g.size();
    }
    std::vector<layer_scratch<float>> scratch(slices_);
    std::vector<const layer_scratch<float>*> scratches(slices_);
    for (std::size_t l = 0; l < layers; ++l) {
        for (std::size_t s = 0; s < slices_; ++s) {
            const auto n = static_cast<std::size_t>(all[cursor[s]]);
            scratch[s].step_statistics.assign(all.begin() + static_cast<std::ptrdiff_t>(cursor[s] + 1),
                                         all.begin() + static_cast<std::ptrdiff_t>(cursor[s] + 1 + n));
            cursor[s] += 1 + n;
            scratches[s] = &scratch[s];
        }
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
