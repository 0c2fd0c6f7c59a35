// Control-task spike coding (see control_coding.hpp).

#include <volley/temporal/control_coding.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::temporal {

std::string to_string(value_encoder e) { return e == value_encoder::argyle ? "argyle" : "flip_flop"; }

value_encoder parse_value_encoder(const std::string& name) {
    if (name == "flip_flop") return value_encoder::flip_flop;
    if (name == "argyle") return value_encoder::argyle;
    throw unknown_name("value encoder", name, "control observation coding (expected flip_flop or argyle)");
}

int encoder_inputs(value_encoder e) { return e == value_encoder::argyle ? 4 : 2; }

int observation_coding::inputs() const { return static_cast<int>(ranges.size()) * encoder_inputs(encoder); }

void observation_coding::validate(const std::string& object) const {
    if (ranges.empty()) throw invalid_parameter(object, "observations", "[]", "give at least one observed value");
    for (std::size_t i = 0; i < ranges.size(); ++i)
        if (!(ranges[i] > 0 && std::isfinite(ranges[i])))
            throw invalid_parameter(object, "range of observation " + std::to_string(i), std::to_string(ranges[i]),
                                    "must be a finite number > 0");
    if (max_spikes < 1) throw invalid_parameter(object, "max_spikes", std::to_string(max_spikes), "must be >= 1");
    if (spike_interval < 1)
        throw invalid_parameter(object, "spike_interval", std::to_string(spike_interval), "must be >= 1");
    if (timesteps_per_observation < 1)
        throw invalid_parameter(object, "timesteps_per_observation", std::to_string(timesteps_per_observation),
                                "must be >= 1");
    if (static_cast<long long>(max_spikes - 1) * spike_interval >= timesteps_per_observation)
        throw invalid_parameter(object, "timesteps_per_observation", std::to_string(timesteps_per_observation),
                                "must exceed (max_spikes - 1) * spike_interval = " +
                                    std::to_string(static_cast<long long>(max_spikes - 1) * spike_interval) +
                                    ", or the last spikes fall outside the observation's run");
}

namespace {

/// ⌈x⌉ of a non-negative count, as an int in [0, m].
int count_of(double x, int m) {
    if (!(x > 0)) return 0;
    return static_cast<int>(std::min<double>(m, std::ceil(x)));
}

}  // namespace

std::vector<int> encode_observation(const std::vector<double>& values, const observation_coding& c) {
    if (values.size() != c.ranges.size())
        throw invalid_parameter("control observation", "values", std::to_string(values.size()),
                                "the coding has " + std::to_string(c.ranges.size()) + " ranges");
    std::vector<int> counts;
    counts.reserve(static_cast<std::size_t>(c.inputs()));
    const double m = c.max_spikes;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i], r = c.ranges[i];
        if (!std::isfinite(v))
            throw invalid_parameter("control observation", "value " + std::to_string(i), std::to_string(v),
                                    "must be finite");
        if (c.encoder == value_encoder::flip_flop) {
            const int n = count_of(m * std::fabs(v) / r, c.max_spikes);
            counts.push_back(v > 0 ? 0 : n);
            counts.push_back(v > 0 ? n : 0);
        } else {
            const double u = std::clamp(v / r, -1.0, 1.0);
            // |u − c_k|·3/2 = |3u − (2k − 3)|/2: exact at the centres, where c_k = −1 + 2k/3 is not.
            for (int k = 0; k < 4; ++k)
                counts.push_back(count_of(m * (1.0 - std::fabs(3.0 * u - (2.0 * k - 3.0)) / 2.0), c.max_spikes));
        }
    }
    return counts;
}

std::vector<hw::spike> observation_spikes(const std::vector<int>& counts, const std::vector<hw::node_id>& input_ids,
                                          int spike_interval) {
    if (counts.size() != input_ids.size())
        throw invalid_parameter("control observation", "spike counts", std::to_string(counts.size()),
                                "the network has " + std::to_string(input_ids.size()) + " inputs");
    std::vector<hw::spike> spikes;
    for (std::size_t i = 0; i < counts.size(); ++i)
        for (int j = 0; j < counts[i]; ++j)
            spikes.push_back({input_ids[i], static_cast<double>(j * spike_interval), 1.0});
    return spikes;
}

int winner_takes_all(const std::vector<int>& counts) {
    if (counts.empty()) throw invalid_parameter("control decoder", "outputs", "0", "needs at least one output");
    return static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
}

}  // namespace volley::temporal
