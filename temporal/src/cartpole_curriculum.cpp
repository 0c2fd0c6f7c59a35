// The training material of a cart-pole evolution (see cartpole_curriculum.hpp).

#include <volley/temporal/cartpole_curriculum.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <array>

namespace volley::temporal {

nlohmann::json curriculum_point::to_json() const { return {{"stage", stage}, {"mined", mined}}; }

curriculum_point curriculum_point::from_json(const nlohmann::json& j, const std::string& object) {
    curriculum_point p;
    auto stage_of = [&](const nlohmann::json& v) {
        if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1'000'000)
            throw invalid_parameter(object, "stage", v.dump(), "expected a stage number >= 0");
        return v.get<int>();
    };
    if (j.is_number()) {
        p.stage = stage_of(j);
        return p;
    }
    if (!j.is_object() || !j.contains("stage") || !j.contains("mined") || !j["mined"].is_array() || j.size() != 2)
        throw invalid_parameter(object, "curriculum point", j.dump(), "expected {\"stage\": K, \"mined\": [...]}");
    p.stage = stage_of(j["stage"]);
    for (const auto& v : j["mined"]) {
        if (!v.is_number_unsigned())
            throw invalid_parameter(object, "mined", v.dump(), "expected start indices >= 0");
        p.mined.push_back(v.get<std::uint64_t>());
    }
    return p;
}

void curriculum_options::validate() const {
    const std::string object = "cart-pole curriculum";
    if (stage_steps.empty()) throw invalid_parameter(object, "stage_steps", "[]", "give at least one episode length");
    for (const int s : stage_steps)
        if (s < 0) throw invalid_parameter(object, "stage_steps", std::to_string(s), "episode lengths must be >= 0");
    if (validation_starts < 0 || validation_starts > max_cartpole_episodes)
        throw invalid_parameter(object, "validation_starts", std::to_string(validation_starts),
                                "must be in [0, " + std::to_string(max_cartpole_episodes) + "]");
    if (mined_per_round < 1)
        throw invalid_parameter(object, "mined_per_round", std::to_string(mined_per_round), "must be >= 1");
}

cartpole_curriculum::cartpole_curriculum(cartpole_setting setting, processor_spec processor, cartpole_task_options base,
                                         curriculum_options options)
    : setting_(std::move(setting)), processor_(std::move(processor)), base_(std::move(base)), options_(std::move(options)) {
    options_.validate();
    base_.validate();
    if (options_.corner_starts)
        for (int k = 0; k < 16; ++k) {
            std::array<double, 4> v{};
            for (int i = 0; i < 4; ++i) v[i] = (k >> (3 - i)) & 1 ? setting_.starts[i].hi : setting_.starts[i].lo;
            pool_.push_back({v[0], v[1], v[2], v[3]});
        }
    for (int i = 0; i < options_.validation_starts; ++i)
        pool_.push_back(cartpole_start(setting_.starts, base_.seed, static_cast<std::uint64_t>(base_.training_episodes + i)));
}

std::shared_ptr<const cartpole_task> cartpole_curriculum::task_at(const curriculum_point& p, const std::string& object) const {
    const auto stages = static_cast<int>(options_.stage_steps.size());
    if (p.stage < 0 || p.stage >= stages)
        throw invalid_parameter(object, "stage", std::to_string(p.stage),
                                "this curriculum has " + std::to_string(stages) + " stage(s)");
    for (const auto i : p.mined)
        if (i >= pool_.size())
            throw invalid_parameter(object, "mined", std::to_string(i),
                                    "not a validation start (the pool has " + std::to_string(pool_.size()) + ")");
    auto o = base_;
    o.training_steps = options_.stage_steps[static_cast<std::size_t>(p.stage)];
    for (const auto i : p.mined) o.extra_starts.push_back(pool_[i]);
    return std::make_shared<cartpole_task>(setting_, processor_, o);
}

std::vector<std::uint64_t> cartpole_curriculum::failed_validation_starts(const hw::tennlab_network& best, int stage,
                                                                         const std::vector<std::uint64_t>& skip) const {
    network_agent agent(processor_, best, setting_, "cart-pole network");
    episode_options o;
    o.max_steps = options_.stage_steps.at(static_cast<std::size_t>(stage));  // 0: the setting's
    std::vector<std::uint64_t> failed;
    for (std::uint64_t i = 0; i < pool_.size(); ++i) {
        if (std::find(skip.begin(), skip.end(), i) != skip.end()) continue;
        if (!run_cartpole_episode(agent, setting_, pool_[i], o).survived) failed.push_back(i);
    }
    return failed;
}

std::optional<curriculum_point> cartpole_curriculum::next(const curriculum_point& p, const hw::tennlab_network& best) const {
    auto failed = failed_validation_starts(best, p.stage, p.mined);
    if (failed.empty()) {
        if (p.stage + 1 < static_cast<int>(options_.stage_steps.size())) return curriculum_point{p.stage + 1, p.mined};
        return std::nullopt;
    }
    if (failed.size() > static_cast<std::size_t>(options_.mined_per_round))
        failed.resize(static_cast<std::size_t>(options_.mined_per_round));
    auto q = p;
    q.mined.insert(q.mined.end(), failed.begin(), failed.end());
    return q;
}

std::string cartpole_curriculum::describe(const curriculum_point& p) const {
    const int steps = options_.stage_steps[static_cast<std::size_t>(p.stage)];
    const auto episodes = static_cast<std::size_t>(base_.training_episodes) + base_.extra_starts.size() + p.mined.size();
    std::string s = std::to_string(episodes) + " training episodes of " +
                    std::to_string(steps > 0 ? steps : setting_.episode_steps) + " steps";
    if (!p.mined.empty()) s += ", " + std::to_string(p.mined.size()) + " of them mined from the validation starts";
    return s;
}

}  // namespace volley::temporal
