// The epoch loop of sequence_classifier: seeded batch order, the warm-up and decay schedule,
// micro-batch gradients on OpenMP threads summed in a fixed order, one optimiser step per batch.

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/learning_rate_schedule.hpp>
#include <volley/convert/sequence_classifier.hpp>
#include <volley/convert/trainer.hpp>
#include <volley/error.hpp>
#include <volley/thread_limit.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>

namespace volley::convert {

namespace {

const char* const who = "sequence_classifier";

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int resolve_threads(int threads) {
    check_thread_count(who, threads);
    return threads == 0 ? omp_get_max_threads() : threads;
}

/// Copies sequences `ids` of `x` into `cx`, and their `per` targets each into `ct`.
void gather(const sequence_tensor<float>& x, std::span<const float> targets, std::size_t per,
            std::span<const std::uint32_t> ids, sequence_tensor<float>& cx,
            std::vector<float>& ct) {
    const std::size_t len = x.shape.per_sequence();
    cx.resize({ids.size(), x.shape.steps, x.shape.features});
    ct.resize(ids.size() * per);
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const float* src = x.values.data() + ids[k] * len;
        std::copy(src, src + len, cx.values.data() + k * len);
        if (!targets.empty())
            std::copy(targets.begin() + ids[k] * per, targets.begin() + (ids[k] + 1) * per,
                      ct.begin() + static_cast<std::ptrdiff_t>(k * per));
    }
}

/// Runs `body(chunk, thread)` for chunks 0..count−1 on `threads` threads; rethrows the first
/// (lowest-chunk) exception after the loop.
template <class Body>
void for_each_chunk(std::size_t count, int threads, const Body& body) {
    std::vector<std::exception_ptr> failures(count);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(count); ++c) {
        try {
            body(static_cast<std::size_t>(c), omp_get_thread_num());
        } catch (...) {
            failures[static_cast<std::size_t>(c)] = std::current_exception();
        }
    }
    for (const auto& f : failures)
        if (f) std::rethrow_exception(f);
}

/// The logits of every sequence of `x`, in micro-batches of 64 sequences.
std::vector<float> all_logits(const sequence_network<float>& net, const sequence_tensor<float>& x,
                              int threads) {
    const std::size_t n = x.shape.n, per = net.answers_per_sequence(), chunk = 64;
    std::vector<float> out(n * per);
    const std::size_t chunks = (n + chunk - 1) / chunk;
    threads = resolve_threads(threads);
    std::vector<sequence_workspace<float>> ws(static_cast<std::size_t>(threads));
    std::vector<sequence_tensor<float>> cx(static_cast<std::size_t>(threads));
    std::vector<std::vector<float>> logits(static_cast<std::size_t>(threads));
    std::vector<std::uint32_t> ids(n);
    for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
    for_each_chunk(chunks, threads, [&](std::size_t c, int tid) {
        const auto t = static_cast<std::size_t>(tid);
        const std::size_t begin = c * chunk, count = std::min(chunk, n - begin);
        std::vector<float> unused;
        gather(x, {}, per, std::span<const std::uint32_t>(ids).subspan(begin, count), cx[t],
               unused);
        net.logits(cx[t], logits[t], ws[t]);
        std::copy(logits[t].begin(), logits[t].end(),
                  out.begin() + static_cast<std::ptrdiff_t>(begin * per));
    });
    return out;
}

}  // namespace

sequence_classifier::sequence_classifier(const sequence_network_config& config)
    : network_(config) {}

sequence_training_history sequence_classifier::train(const sequence_tensor<float>& x,
                                                     std::span<const float> targets,
                                                     const sequence_training_options& o) {
    network_.check_batch(x, &targets, who);
    const std::size_t n = x.shape.n;
    if (n == 0) throw invalid_parameter(who, "training sequences", "0", "must be >= 1");
    if (o.epochs == 0) throw invalid_parameter(who, "epochs", "0", "must be >= 1");
    if (o.batch_size == 0 || o.batch_size > n)
        throw invalid_parameter(
            who, "batch size", std::to_string(o.batch_size),
            "must be between 1 and the " + std::to_string(n) + " training sequences");
    if (o.micro_batch == 0) throw invalid_parameter(who, "micro batch", "0", "must be >= 1");
    if (!(std::isfinite(o.warmup_epochs) && o.warmup_epochs >= 0 &&
          o.warmup_epochs <= static_cast<double>(o.epochs)))
        throw invalid_parameter(
            who, "warmup epochs", std::to_string(o.warmup_epochs),
            "must be between 0 and the " + std::to_string(o.epochs) + " epochs");
    const int threads = resolve_threads(o.threads);
    auto opt = make_optimizer(o.optimizer, o.settings);
    const std::size_t steps_per_epoch = (n + o.batch_size - 1) / o.batch_size;
    const learning_rate_schedule schedule{
        o.learning_rate,
        static_cast<std::size_t>(
            std::llround(o.warmup_epochs * static_cast<double>(steps_per_epoch))),
        steps_per_epoch * o.epochs, o.decay_power};
    schedule.validate();

    const std::vector<parameter<float>*> params = network_.parameters();
    std::vector<std::vector<float>> grads;
    for (const auto* p : params) grads.emplace_back(p->values.size(), 0.0f);
    const std::size_t max_chunks = (o.batch_size + o.micro_batch - 1) / o.micro_batch;
    std::vector<std::vector<std::vector<float>>> chunk_grads(max_chunks, grads);
    std::vector<double> chunk_loss(max_chunks);
    std::vector<std::size_t> chunk_correct(max_chunks);
    const auto slots = static_cast<std::size_t>(threads);
    std::vector<sequence_workspace<float>> ws(slots);
    std::vector<sequence_tensor<float>> cx(slots);
    std::vector<std::vector<float>> ct(slots);
    const std::size_t per = network_.answers_per_sequence();
    const std::size_t scored = network_.scored_per_sequence();

    sequence_training_history history;
    history.threads = threads;
    const auto run_start = std::chrono::steady_clock::now();
    std::size_t global_step = 0;
    for (std::size_t epoch = 0; epoch < o.epochs; ++epoch) {
        const auto order = epoch_order(n, o.seed, epoch);
        const auto epoch_start = std::chrono::steady_clock::now();
        double loss_sum = 0;
        std::size_t correct = 0, answers = 0;
        sequence_epoch_record rec;
        rec.epoch = epoch + 1;
        for (std::size_t s = 0; s < steps_per_epoch; ++s, ++global_step) {
            const std::size_t begin = s * o.batch_size, count = std::min(o.batch_size, n - begin);
            const std::span<const std::uint32_t> batch(order.data() + begin, count);
            const std::size_t chunks = (count + o.micro_batch - 1) / o.micro_batch;
            const double batch_answers = static_cast<double>(count * scored);
            for_each_chunk(chunks, threads, [&](std::size_t c, int tid) {
                const auto t = static_cast<std::size_t>(tid);
                const std::size_t first = c * o.micro_batch;
                for (auto& g : chunk_grads[c]) std::fill(g.begin(), g.end(), 0.0f);
                gather(x, targets, per,
                       batch.subspan(first, std::min(o.micro_batch, count - first)), cx[t], ct[t]);
                std::size_t hits = 0;
                chunk_loss[c] = network_.loss_and_gradients(cx[t], ct[t], 1.0 / batch_answers,
                                                            chunk_grads[c], ws[t], &hits);
                chunk_correct[c] = hits;
            });
            double loss = 0;
            for (auto& g : grads) std::fill(g.begin(), g.end(), 0.0f);
            for (std::size_t c = 0; c < chunks; ++c) {
                loss += chunk_loss[c];
                correct += chunk_correct[c];
                for (std::size_t k = 0; k < grads.size(); ++k)
                    for (std::size_t i = 0; i < grads[k].size(); ++i)
                        grads[k][i] += chunk_grads[c][k][i];
            }
            if (!std::isfinite(loss))
                throw training_diverged(epoch + 1, s + 1, loss / batch_answers);
            loss_sum += loss;
            answers += count * scored;
            rec.learning_rate = schedule.at(global_step);
            opt->step(params, grads, rec.learning_rate);
        }
        rec.train_s = seconds_since(epoch_start);
        rec.train_loss = loss_sum / static_cast<double>(answers);
        rec.train_accuracy = static_cast<double>(correct) / static_cast<double>(answers);
        history.epochs.push_back(rec);
    }
    history.steps = global_step;
    history.wall_s = seconds_since(run_start);
    return history;
}

std::vector<float> sequence_classifier::predict(const sequence_tensor<float>& x,
                                                int threads) const {
    network_.check_batch(x, nullptr, who);
    auto p = all_logits(network_, x, threads);
    for (auto& v : p) v = 1.0f / (1.0f + std::exp(-v));
    return p;
}

double sequence_classifier::accuracy(const sequence_tensor<float>& x,
                                     std::span<const float> targets, int threads) const {
    network_.check_batch(x, &targets, who);
    const auto logits = all_logits(network_, x, threads);
    const auto& frames = network_.config().scored_frames;
    const std::size_t per = network_.answers_per_sequence();
    std::size_t correct = 0, scored = 0;
    for (std::size_t k = 0; k < logits.size(); ++k) {
        if (!frames.empty() && frames[k % per] == 0) continue;
        ++scored;
        if ((logits[k] > 0) == (targets[k] >= 0.5f)) ++correct;
    }
    return scored ? static_cast<double>(correct) / static_cast<double>(scored) : 0.0;
}

}  // namespace volley::convert
