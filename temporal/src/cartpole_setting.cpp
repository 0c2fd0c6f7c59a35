// Cart-pole settings as data (see cartpole_setting.hpp).

#include <volley/temporal/cartpole_setting.hpp>

#include <volley/error.hpp>
#include <volley/json_text.hpp>

#include "builtin_settings.hpp"

#include <cmath>
#include <fstream>
#include <set>

namespace volley::temporal {

namespace {

constexpr const char* value_names[] = {"x", "x_dot", "theta", "theta_dot"};

int value_index(const std::string& name, const std::string& source, const std::string& key) {
    for (int i = 0; i < 4; ++i)
        if (name == value_names[i]) return i;
    throw invalid_parameter(source, key, "\"" + name + "\"", "unknown cart-pole value (expected x, x_dot, theta or theta_dot)");
}

cartpole_action parse_action(const std::string& name, const std::string& source, const std::string& key) {
    if (name == "nothing") return cartpole_action::nothing;
    if (name == "left") return cartpole_action::left;
    if (name == "right") return cartpole_action::right;
    throw invalid_parameter(source, key, "\"" + name + "\"", "unknown action (expected nothing, left or right)");
}

int read_int(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (!v.is_number_integer()) throw invalid_parameter(source, key, v.dump(), "must be an integer");
    const auto i = v.get<long long>();
    if (i < 1 || i > 1'000'000'000) throw invalid_parameter(source, key, v.dump(), "must be in [1, 1e9]");
    return static_cast<int>(i);
}

double read_number(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (!v.is_number()) throw invalid_parameter(source, key, v.dump(), "must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw invalid_parameter(source, key, v.dump(), "must be finite");
    return d;
}

std::string read_string(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (!v.is_string()) throw invalid_parameter(source, key, v.dump(), "must be a string");
    return v.get<std::string>();
}

}  // namespace

std::string to_string(cartpole_action a) {
    return a == cartpole_action::left ? "left" : a == cartpole_action::right ? "right" : "nothing";
}

double force_of(cartpole_action a, const cartpole_physics& p) {
    return a == cartpole_action::left ? -p.force : a == cartpole_action::right ? p.force : 0.0;
}

std::vector<double> cartpole_setting::observe(const cartpole_state& s) const {
    const auto all = s.values();
    std::vector<double> v;
    v.reserve(observed.size());
    for (int i : observed) v.push_back(all[static_cast<std::size_t>(i)]);
    return v;
}

cartpole_setting cartpole_setting::from_json(const nlohmann::json& j, const std::string& source) {
    if (!j.is_object()) throw invalid_parameter(source, "cart-pole setting", j.dump().substr(0, 80), "must be a JSON object");
    cartpole_setting s;
    bool have_observations = false, have_actions = false;
    for (const auto& [key, v] : j.items()) {
        if (key == "name") {
            s.name = read_string(v, source, key);
        } else if (key == "description") {
            s.description = read_string(v, source, key);
        } else if (key == "observations") {
            if (!v.is_array() || v.empty())
                throw invalid_parameter(source, key, v.dump(), "must be a non-empty array of {\"value\", \"range\"}");
            std::set<int> seen;
            for (std::size_t i = 0; i < v.size(); ++i) {
                const std::string at = key + "[" + std::to_string(i) + "]";
                const auto& o = v[i];
                if (!o.is_object() || !o.contains("value") || !o.contains("range") || o.size() != 2)
                    throw invalid_parameter(source, at, o.dump(), "must be {\"value\": NAME, \"range\": R}");
                const int idx = value_index(read_string(o["value"], source, at + ".value"), source, at + ".value");
                if (!seen.insert(idx).second)
                    throw invalid_parameter(source, at + ".value", o["value"].dump(), "is observed twice");
                const double r = read_number(o["range"], source, at + ".range");
                if (!(r > 0)) throw invalid_parameter(source, at + ".range", o["range"].dump(), "must be > 0");
                s.observed.push_back(idx);
                s.coding.ranges.push_back(r);
            }
            have_observations = true;
        } else if (key == "encoder") {
            try {
                s.coding.encoder = parse_value_encoder(read_string(v, source, key));
            } catch (const unknown_name&) {
                throw invalid_parameter(source, key, v.dump(), "unknown encoder (expected flip_flop or argyle)");
            }
        } else if (key == "max_spikes") {
            s.coding.max_spikes = read_int(v, source, key);
        } else if (key == "spike_interval") {
            s.coding.spike_interval = read_int(v, source, key);
        } else if (key == "timesteps_per_observation") {
            s.coding.timesteps_per_observation = read_int(v, source, key);
        } else if (key == "actions") {
            if (!v.is_array() || v.size() < 2)
                throw invalid_parameter(source, key, v.dump(), "must be an array of at least two actions");
            std::set<cartpole_action> seen;
            for (std::size_t i = 0; i < v.size(); ++i) {
                const std::string at = key + "[" + std::to_string(i) + "]";
                const auto a = parse_action(read_string(v[i], source, at), source, at);
                if (!seen.insert(a).second) throw invalid_parameter(source, at, v[i].dump(), "is listed twice");
                s.actions.push_back(a);
            }
            have_actions = true;
        } else if (key == "episode_steps") {
            s.episode_steps = read_int(v, source, key);
        } else if (key == "start_ranges") {
            if (!v.is_object()) throw invalid_parameter(source, key, v.dump(), "must be {\"x\": [lo, hi], …}");
            for (const auto& [name, r] : v.items()) {
                const std::string at = key + "." + name;
                const int idx = value_index(name, source, at);
                if (!r.is_array() || r.size() != 2)
                    throw invalid_parameter(source, at, r.dump(), "must be [lo, hi]");
                const double lo = read_number(r[0], source, at), hi = read_number(r[1], source, at);
                if (lo > hi) throw invalid_parameter(source, at, r.dump(), "lo must be <= hi");
                s.starts[static_cast<std::size_t>(idx)] = {lo, hi};
            }
        } else if (key == "physics") {
            if (!v.is_object()) throw invalid_parameter(source, key, v.dump(), "must be {\"gravity\": 9.8, …}");
            auto& p = s.physics;
            const std::pair<const char*, double*> fields[] = {{"gravity", &p.gravity},         {"cart_mass", &p.cart_mass},
                                                              {"pole_mass", &p.pole_mass},     {"half_length", &p.half_length},
                                                              {"tau", &p.tau},                 {"force", &p.force}};
            for (const auto& [name, value] : v.items()) {
                const std::string at = key + "." + name;
                double* target = nullptr;
                for (const auto& [field, ptr] : fields)
                    if (name == field) target = ptr;
                if (!target) throw invalid_parameter(source, at, value.dump(), "unknown physics constant");
                *target = read_number(value, source, at);
                if (!(*target > 0)) throw invalid_parameter(source, at, value.dump(), "must be > 0");
            }
        } else {
            throw invalid_parameter(source, key, v.dump().substr(0, 80), "unknown cart-pole setting key");
        }
    }
    if (!have_observations) throw invalid_parameter(source, "observations", "missing", "a setting must list its observations");
    if (!have_actions) throw invalid_parameter(source, "actions", "missing", "a setting must list its actions");
    s.coding.validate(source);
    const cartpole_physics& p = s.physics;
    const double limits[4] = {p.x_limit, INFINITY, p.theta_limit, INFINITY};
    for (std::size_t k = 0; k < 4; ++k)
        if (std::fabs(s.starts[k].lo) > limits[k] || std::fabs(s.starts[k].hi) > limits[k])
            throw invalid_parameter(source, std::string("start_ranges.") + value_names[k],
                                    "[" + std::to_string(s.starts[k].lo) + ", " + std::to_string(s.starts[k].hi) + "]",
                                    "starts outside the failure limits end the episode at once");
    return s;
}

nlohmann::json cartpole_setting::to_json() const {
    nlohmann::json obs = nlohmann::json::array();
    for (std::size_t i = 0; i < observed.size(); ++i)
        obs.push_back({{"value", value_names[observed[i]]}, {"range", coding.ranges[i]}});
    nlohmann::json acts = nlohmann::json::array();
    for (auto a : actions) acts.push_back(to_string(a));
    nlohmann::json starts_json = nlohmann::json::object();
    for (std::size_t k = 0; k < 4; ++k) starts_json[value_names[k]] = {starts[k].lo, starts[k].hi};
    return {{"name", name},
            {"description", description},
            {"observations", obs},
            {"encoder", to_string(coding.encoder)},
            {"max_spikes", coding.max_spikes},
            {"spike_interval", coding.spike_interval},
            {"timesteps_per_observation", coding.timesteps_per_observation},
            {"actions", acts},
            {"episode_steps", episode_steps},
            {"start_ranges", starts_json},
            {"physics",
             {{"gravity", physics.gravity},
              {"cart_mass", physics.cart_mass},
              {"pole_mass", physics.pole_mass},
              {"half_length", physics.half_length},
              {"tau", physics.tau},
              {"force", physics.force}}}};
}

cartpole_setting cartpole_setting::load(const std::string& name_or_path) {
    for (const auto& [name, text] : detail::builtin_settings)
        if (name == name_or_path)
            return from_json(parse_json_text(text, "built-in setting " + std::string(name)), "built-in setting " + std::string(name));
    std::ifstream in(name_or_path);
    if (!in)
        throw io_error(name_or_path, "cannot open the cart-pole setting (not a built-in one: easy, medium, hard, hardest)");
    return from_json(parse_json_stream(in, name_or_path), name_or_path);
}

void cartpole_setting::check_network(const hw::tennlab_network& net, const std::string& object) const {
    if (net.inputs.size() != static_cast<std::size_t>(inputs()))
        throw invalid_parameter(object, "inputs", std::to_string(net.inputs.size()),
                                "the " + name + " setting needs " + std::to_string(inputs()) + " (" +
                                    std::to_string(observed.size()) + " values, " + to_string(coding.encoder) + ")");
    if (net.outputs.size() != static_cast<std::size_t>(outputs()))
        throw invalid_parameter(object, "outputs", std::to_string(net.outputs.size()),
                                "the " + name + " setting needs " + std::to_string(outputs()) + " (one per action)");
}

std::vector<std::string> builtin_cartpole_settings() {
    std::vector<std::string> names;
    for (const auto& [name, text] : detail::builtin_settings) names.emplace_back(name);
    return names;
}

}  // namespace volley::temporal
