// Answers from output fires (see decoding.hpp).

#include <volley/temporal/decoding.hpp>

#include <volley/error.hpp>

#include <cmath>

namespace volley::temporal {

void decoding_options::validate() const {
    const std::string object = "temporal decoding";
    if (answer_latency < 0)
        throw invalid_parameter(object, "answer_latency", std::to_string(answer_latency), "must be >= 0");
    if (tail_cycles < answer_latency)
        throw invalid_parameter(object, "tail_cycles", std::to_string(tail_cycles),
                                "must be >= answer_latency (" + std::to_string(answer_latency) + ")");
}

std::int64_t decoding_options::run_cycles(const task_spec& task, int cycles_per_frame) const {
    return static_cast<std::int64_t>(task.frames) * cycles_per_frame + tail_cycles;
}

std::vector<std::uint8_t> decode_answers(const task_spec& task, int cycles_per_frame, const decoding_options& options,
                                         std::span<const double> fire_cycles) {
    options.validate();
    const std::int64_t c = cycles_per_frame, end = options.run_cycles(task, cycles_per_frame);
    auto fires_in = [&](std::int64_t from, std::int64_t to) {
        for (const double f : fire_cycles) {
            const auto t = static_cast<std::int64_t>(std::floor(f));
            if (t >= from && t < to) return true;
        }
        return false;
    };
    if (task.kind != question::change) {
        const std::int64_t from = options.window == answer_window::whole_run ? 0 : (task.frames - 1) * c;
        return {static_cast<std::uint8_t>(fires_in(from, end))};
    }
    std::vector<std::uint8_t> out;
    for (std::int64_t k = 1; k < task.frames; ++k)
        out.push_back(fires_in(k * c + options.answer_latency, (k + 1) * c + options.answer_latency));
    return out;
}

void tally_answers(answer_tally& tally, std::span<const std::uint8_t> given, std::span<const std::uint8_t> truth) {
    if (given.size() != truth.size())
        throw invalid_parameter("temporal answers", "answers", std::to_string(given.size()),
                                "expected " + std::to_string(truth.size()));
    for (std::size_t i = 0; i < given.size(); ++i) tally.correct += (given[i] != 0) == (truth[i] != 0);
    tally.total += given.size();
}

}  // namespace volley::temporal
