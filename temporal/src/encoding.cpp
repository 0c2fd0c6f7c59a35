// Evidence -> input spikes (see encoding.hpp).

#include <volley/temporal/encoding.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::temporal {

std::string to_string(encoding_mode m) {
    switch (m) {
    case encoding_mode::rate: return "rate";
    case encoding_mode::first_spike: return "first_spike";
    case encoding_mode::winner: return "winner";
    }
    throw internal_error("temporal: encoding value " + std::to_string(static_cast<int>(m)));
}

encoding_mode parse_encoding_mode(const std::string& name) {
    if (name == "rate") return encoding_mode::rate;
    if (name == "first_spike") return encoding_mode::first_spike;
    if (name == "winner") return encoding_mode::winner;
    throw unknown_name("encoding", name, "temporal encoding (expected rate, first_spike or winner)");
}

void encoding_options::validate() const {
    const std::string object = "temporal encoding";
    if (cycles_per_frame < 1)
        throw invalid_parameter(object, "cycles_per_frame", std::to_string(cycles_per_frame), "must be >= 1");
    if (gap_cycles < 0 || gap_cycles >= cycles_per_frame)
        throw invalid_parameter(object, "gap_cycles", std::to_string(gap_cycles),
                                "must be in [0, cycles_per_frame = " + std::to_string(cycles_per_frame) + ")");
    if (mode == encoding_mode::rate && (max_spikes < 1 || max_spikes > active_cycles()))
        throw invalid_parameter(object, "max_spikes", std::to_string(max_spikes),
                                "must be in [1, cycles_per_frame - gap_cycles = " + std::to_string(active_cycles()) + "]");
    if (!(threshold >= 0 && threshold <= 1))
        throw invalid_parameter(object, "threshold", std::to_string(threshold), "must be in [0, 1]");
}

std::vector<input_event> encode_frame(std::span<const float> evidence, std::int32_t predicted,
                                      const encoding_options& options) {
    std::vector<input_event> out;
    const int classes = static_cast<int>(evidence.size());
    if (options.mode == encoding_mode::winner) {
        if (predicted < 0 || predicted >= classes)
            throw invalid_parameter("temporal encoding", "predicted class", std::to_string(predicted),
                                    "must be in [0, " + std::to_string(classes) + ")");
        out.push_back({predicted, 0});
        return out;
    }
    const float top = evidence.empty() ? 0.0f : *std::max_element(evidence.begin(), evidence.end());
    if (!(top > 0)) return out;
    const int a = options.active_cycles();
    for (int c = 0; c < classes; ++c) {
        const double v = std::max(0.0, static_cast<double>(evidence[static_cast<std::size_t>(c)]) / top);
        if (v < options.threshold) continue;
        if (options.mode == encoding_mode::first_spike) {
            out.push_back({c, static_cast<int>(std::lround((1.0 - v) * (a - 1)))});
        } else {
            const auto n = static_cast<int>(std::lround(v * options.max_spikes));
            for (int j = 0; j < n; ++j) out.push_back({c, j * a / n});
        }
    }
    std::sort(out.begin(), out.end(),
              [](const input_event& x, const input_event& y) { return x.cycle != y.cycle ? x.cycle < y.cycle : x.input < y.input; });
    return out;
}

encoded_sequence encode_sequence(const sequence& s, const feature_table& features, const encoding_options& options) {
    options.validate();
    encoded_sequence e;
    for (std::size_t k = 0; k < s.images.size(); ++k) {
        const auto frame = encode_frame(features.row(s.images[k]), features.predicted(s.images[k]), options);
        for (auto ev : frame) {
            ev.cycle += static_cast<int>(k) * options.cycles_per_frame;
            e.events.push_back(ev);
        }
    }
    e.answers = s.answers;
    return e;
}

std::vector<encoded_sequence> encode_sequences(const std::vector<sequence>& sequences, const feature_table& features,
                                               const encoding_options& options) {
    std::vector<encoded_sequence> out;
    out.reserve(sequences.size());
    for (const auto& s : sequences) out.push_back(encode_sequence(s, features, options));
    return out;
}

}  // namespace volley::temporal
