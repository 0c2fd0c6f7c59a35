// GRU + dense head + sigmoid binary cross-entropy: the glue between the three passes.

#include <volley/convert/binary_cross_entropy.hpp>
#include <volley/convert/sequence_network.hpp>
#include <volley/error.hpp>

#include "random_stream.hpp"

#include <algorithm>
#include <string>

namespace volley::convert {

namespace {

const sequence_network_config& validated(const sequence_network_config& c) {
    const std::string who = "sequence_network";
    if (c.input_features == 0) throw invalid_parameter(who, "input_features", "0", "must be >= 1");
    if (c.steps == 0) throw invalid_parameter(who, "steps", "0", "must be >= 1");
    if (c.hidden == 0) throw invalid_parameter(who, "hidden", "0", "must be >= 1");
    if (c.answer == sequence_answer::per_sequence && !c.scored_frames.empty())
        throw invalid_parameter(who, "scored_frames",
                                std::to_string(c.scored_frames.size()) + " flags",
                                "must be empty for per-sequence answers");
    if (!c.scored_frames.empty()) {
        if (c.scored_frames.size() != c.steps)
            throw invalid_parameter(who, "scored_frames",
                                    std::to_string(c.scored_frames.size()) + " flags",
                                    "expected one per frame (" + std::to_string(c.steps) + ")");
        for (std::size_t t = 0; t < c.steps; ++t)
            if (c.scored_frames[t] > 1)
                throw invalid_parameter(who, "scored_frames[" + std::to_string(t) + "]",
                                        std::to_string(c.scored_frames[t]), "must be 0 or 1");
        if (std::count(c.scored_frames.begin(), c.scored_frames.end(), 1) == 0)
            throw invalid_parameter(who, "scored_frames", "all 0",
                                    "at least one frame must be scored");
    }
    return c;
}

}  // namespace

std::vector<std::uint8_t> scored_frames_from(std::size_t steps, std::size_t first) {
    if (first >= steps)
        throw invalid_parameter("scored_frames_from", "first", std::to_string(first),
                                "must be below the " + std::to_string(steps) + " frames");
    std::vector<std::uint8_t> flags(steps, 1);
    std::fill(flags.begin(), flags.begin() + static_cast<std::ptrdiff_t>(first), 0);
    return flags;
}

template <class T>
sequence_network<T>::sequence_network(const sequence_network_config& config)
    : config_(validated(config)),
      recurrent_(config.input_features, config.hidden, config.init_seed),
      head_(config.hidden, 1, detail::mix64(config.init_seed ^ 0x68656164ULL)) {
    head_.set_name("dense_head");
}

template <class T>
std::size_t sequence_network<T>::answers_per_sequence() const noexcept {
    return config_.answer == sequence_answer::per_sequence ? 1 : config_.steps;
}

template <class T>
std::size_t sequence_network<T>::scored_per_sequence() const noexcept {
    if (config_.answer == sequence_answer::per_sequence) return 1;
    if (config_.scored_frames.empty()) return config_.steps;
    return static_cast<std::size_t>(
        std::count(config_.scored_frames.begin(), config_.scored_frames.end(), 1));
}

template <class T>
std::size_t sequence_network<T>::parameter_count() const noexcept {
    return recurrent_.parameter_count() + config_.hidden + 1;
}

template <class T>
void sequence_network<T>::check_batch(const sequence_tensor<T>& x,
                                      const std::span<const T>* targets,
                                      const std::string& who) const {
    recurrent_.check_input(x.shape, who);
    if (x.shape.steps != config_.steps)
        throw invalid_parameter(who, "frames per sequence", std::to_string(x.shape.steps),
                                "expected " + std::to_string(config_.steps));
    if (x.values.size() != x.shape.size())
        throw invalid_parameter(
            who, "feature values", std::to_string(x.values.size()),
            "expected " + std::to_string(x.shape.size()) + " for shape " + to_string(x.shape));
    if (!targets) return;
    const std::size_t per = answers_per_sequence(), expected = x.shape.n * per;
    if (targets->size() != expected)
        throw invalid_parameter(
            who, "targets", std::to_string(targets->size()),
            "expected " + std::to_string(expected) +
                (per == 1 ? " (one per sequence)"
                          : " (one per frame: sequences x " + std::to_string(per) + ")"));
    for (std::size_t k = 0; k < expected; ++k) {
        const bool scored = config_.scored_frames.empty() || config_.scored_frames[k % per] != 0;
        const T y = (*targets)[k];
        if (scored && !(y >= T(0) && y <= T(1)))
            throw invalid_parameter(who, "target " + std::to_string(k), std::to_string(y),
                                    "must be in [0, 1]");
    }
}

template <class T>
void sequence_network<T>::forward(const sequence_tensor<T>& x, sequence_workspace<T>& ws) const {
    recurrent_.forward(x, ws.states, ws.recurrent);
    const std::size_t n = x.shape.n, steps = x.shape.steps, H = config_.hidden;
    if (config_.answer == sequence_answer::per_sequence) {
        ws.head_in.resize({n, H, 1, 1});
        for (std::size_t i = 0; i < n; ++i) {
            const T* last = ws.states.frame(i, steps - 1);
            std::copy(last, last + H, ws.head_in.image(i));
        }
    } else {
        ws.head_in.resize({n * steps, H, 1, 1});
        std::copy(ws.states.values.begin(), ws.states.values.end(), ws.head_in.values.begin());
    }
    head_.forward(ws.head_in, ws.head_out, ws.head, pass_context{});
}

template <class T>
void sequence_network<T>::logits(const sequence_tensor<T>& x, std::vector<T>& out,
                                 sequence_workspace<T>& ws) const {
    check_batch(x, nullptr, "sequence_network");
    forward(x, ws);
    out.assign(ws.head_out.values.begin(), ws.head_out.values.end());
}

template <class T>
double sequence_network<T>::loss_and_gradients(const sequence_tensor<T>& x,
                                               std::span<const T> targets, double scale,
                                               std::span<std::vector<T>> gradients,
                                               sequence_workspace<T>& ws, std::size_t* correct,
                                               sequence_tensor<T>* dx) const {
    check_batch(x, &targets, "sequence_network");
    if (gradients.size() != 5)
        throw invalid_parameter("sequence_network", "gradient arrays",
                                std::to_string(gradients.size()), "expected 5");
    forward(x, ws);
    const std::size_t n = x.shape.n, steps = x.shape.steps, H = config_.hidden;
    ws.mask.clear();
    if (!config_.scored_frames.empty())
        for (std::size_t i = 0; i < n; ++i)
            ws.mask.insert(ws.mask.end(), config_.scored_frames.begin(),
                           config_.scored_frames.end());
    ws.d_head_out.resize(ws.head_out.shape);
    const double loss = sigmoid_binary_cross_entropy<T>(ws.head_out.values, targets, ws.mask, scale,
                                                        ws.d_head_out.values, correct);
    head_.backward(ws.head_in, ws.head_out, ws.d_head_out, &ws.d_head_in, gradients.subspan(3, 2),
                   ws.head, pass_context{});
    if (config_.answer == sequence_answer::per_sequence) {
        ws.d_states.resize(ws.states.shape);
        std::fill(ws.d_states.values.begin(), ws.d_states.values.end(), T(0));
        for (std::size_t i = 0; i < n; ++i) {
            const T* d = ws.d_head_in.image(i);
            std::copy(d, d + H, ws.d_states.frame(i, steps - 1));
        }
    } else {
        ws.d_states.resize(ws.states.shape);
        std::copy(ws.d_head_in.values.begin(), ws.d_head_in.values.end(),
                  ws.d_states.values.begin());
    }
    recurrent_.backward(x, ws.states, ws.d_states, dx, gradients.subspan(0, 3), ws.recurrent);
    return loss;
}

template <class T>
std::vector<parameter<T>*> sequence_network<T>::parameters() {
    std::vector<parameter<T>*> out;
    for (auto& p : recurrent_.parameters()) out.push_back(&p);
    for (auto& p : head_.parameters()) out.push_back(&p);
    return out;
}

template <class T>
std::vector<const parameter<T>*> sequence_network<T>::parameters() const {
    std::vector<const parameter<T>*> out;
    for (const auto& p : recurrent_.parameters()) out.push_back(&p);
    for (const auto& p : static_cast<const layer<T>&>(head_).parameters()) out.push_back(&p);
    return out;
}

template class sequence_network<float>;
template class sequence_network<double>;

}  // namespace volley::convert
