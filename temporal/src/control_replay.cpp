// Replaying TENNLab cart-pole logs (see control_replay.hpp).

#include <volley/temporal/control_replay.hpp>

#include <volley/error.hpp>

#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

namespace volley::temporal {

namespace {

template <class T>
std::vector<T> numbers(const std::string& text, const std::string& path, int line) {
    std::istringstream in(text);
    std::vector<T> v;
    T x;
    while (in >> x) v.push_back(x);
    if (!in.eof() || v.empty())
        throw file_format_error(path, "line " + std::to_string(line), "expected numbers, read '" + text + "'");
    return v;
}

/// One unit of the sixth significant digit of a value printed with %g (six digits).
double printed_unit(double v) {
    const double a = std::fabs(v);
    if (a == 0) return 1e-6;
    return std::pow(10.0, std::floor(std::log10(a)) - 5);
}

}  // namespace

std::vector<logged_step> read_cartpole_log(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the cart-pole log for reading");
    std::vector<logged_step> steps;
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
        ++line;
        // "# Step 0012. What: …" (some logs write "#  0012. What: …").
        if (!text.starts_with("#")) continue;
        std::size_t at = text.find_first_not_of(' ', 1);
        if (at != std::string::npos && text.compare(at, 4, "Step") == 0) at = text.find_first_not_of(' ', at + 4);
        if (at == std::string::npos || !std::isdigit(static_cast<unsigned char>(text[at]))) continue;
        const auto dot = text.find(". ", at);
        const auto colon = text.find(": ", dot == std::string::npos ? 0 : dot);
        if (dot == std::string::npos || colon == std::string::npos) continue;
        const std::string what = text.substr(dot + 2, colon - dot - 2), rest = text.substr(colon + 2);
        if (text.find_first_not_of("0123456789", at) != dot || dot - at > 9)
            throw file_format_error(path, "line " + std::to_string(line), "bad step number in '" + text + "'");
        const int n = std::stoi(text.substr(at, dot - at));
        if (what == "Observations") {
            if (!steps.empty() && n != steps.back().step + 1)
                throw file_format_error(path, "line " + std::to_string(line),
                                        "step " + std::to_string(n) + " follows step " + std::to_string(steps.back().step));
            logged_step s;
            s.step = n;
            s.line = line;
            s.observations = numbers<double>(rest, path, line);
            steps.push_back(std::move(s));
            continue;
        }
        if (what != "I-Spike-C" && what != "O-Spike-C" && what != "Action") continue;  // rasters
        if (steps.empty() || steps.back().step != n)
            throw file_format_error(path, "line " + std::to_string(line), what + " of step " + std::to_string(n) +
                                                                              " before its Observations");
        auto& s = steps.back();
        if (what == "I-Spike-C") s.input_counts = numbers<int>(rest, path, line);
        else if (what == "O-Spike-C") s.output_counts = numbers<int>(rest, path, line);
        else s.action = numbers<int>(rest, path, line).front();
    }
    if (steps.empty()) throw file_format_error(path, "", "no '# Step N. Observations:' comments: not a cart-pole log");
    for (const auto& s : steps)
        if (s.input_counts.empty() || s.output_counts.empty() || s.action < 0)
            throw file_format_error(path, "line " + std::to_string(s.line),
                                    "step " + std::to_string(s.step) + " lacks its spike counts or its action");
    return steps;
}

replay_report replay_cartpole_log(network_agent& agent, const cartpole_setting& setting,
                                  const std::vector<logged_step>& log) {
    const auto values = setting.observed.size();
    for (const auto& s : log) {
        const std::string at = "cart-pole log step " + std::to_string(s.step);
        if (s.observations.size() != values)
            throw invalid_parameter(at, "observations", std::to_string(s.observations.size()),
                                    "the " + setting.name + " setting observes " + std::to_string(values));
        if (s.output_counts.size() != static_cast<std::size_t>(setting.outputs()))
            throw invalid_parameter(at, "output counts", std::to_string(s.output_counts.size()),
                                    "the " + setting.name + " setting has " + std::to_string(setting.outputs()) + " actions");
    }
    replay_report r;
    agent.reset();
    const bool full = values == 4;
    auto note = [&](int step, const std::string& what) {
        if (r.first_mismatch_step < 0) r.first_mismatch_step = step, r.first_mismatch = what;
    };
    for (std::size_t k = 0; k < log.size(); ++k) {
        const auto& s = log[k];
        std::vector<int> in, out;
        const int action = agent.act(s.observations, &in, &out);
        ++r.steps;
        if (in != s.input_counts) ++r.input_mismatches, note(s.step, "input spike counts");
        if (out != s.output_counts) ++r.output_mismatches, note(s.step, "output spike counts");
        if (action != s.action) ++r.action_mismatches, note(s.step, "action");
        if (full && k + 1 < log.size()) {
            const auto& o = s.observations;
            const cartpole_state now{o[0], o[1], o[2], o[3]};
            const double force = force_of(setting.actions[static_cast<std::size_t>(s.action)], setting.physics);
            const auto next = cartpole_step(now, force, setting.physics).values();
            const auto& logged = log[k + 1].observations;
            // Within the printed digits: both logged states were rounded to six significant
            // digits, so the prediction may differ from the logged value by half a unit of its
            // last digit plus the rounding of every input value carried through the step (its
            // Jacobian, by finite differences).
            std::array<double, 4> allowed;
            for (std::size_t i = 0; i < 4; ++i) allowed[i] = 0.5 * printed_unit(logged[i]);
            for (std::size_t j = 0; j < 4; ++j) {
                auto moved = o;
                const double h = 1e-7 * std::max(1.0, std::fabs(o[j]));
                moved[j] += h;
                const auto shifted = cartpole_step({moved[0], moved[1], moved[2], moved[3]}, force, setting.physics).values();
                for (std::size_t i = 0; i < 4; ++i)
                    allowed[i] += std::fabs((shifted[i] - next[i]) / h) * 0.5 * printed_unit(o[j]);
            }
            ++r.dynamics_checked;
            bool outside = false;
            for (std::size_t i = 0; i < 4; ++i) {
                const double ratio = std::fabs(next[i] - logged[i]) / allowed[i];
                r.dynamics_worst_ratio = std::max(r.dynamics_worst_ratio, ratio);
                outside = outside || ratio > 1.0 + 1e-6;
            }
            if (outside) ++r.dynamics_outside, note(s.step, "dynamics");
        }
    }
    return r;
}

}  // namespace volley::temporal
