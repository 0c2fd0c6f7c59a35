// Checkpoints: evolution_state and network_template as JSON (docs/eons.md, "Checkpoints").
//
// nlohmann::json writes a double as the shortest text that reads back to the same double, and
// TENNLab network values go through tennlab_network::to_json (integral values as integers), so
// a state read back from its dump resumes bit for bit.

#include <volley/eons/evolution.hpp>
#include <volley/eons/operators.hpp>

#include <volley/error.hpp>

#include <cmath>
#include <limits>

namespace volley::eons {

namespace {

constexpr const char* format_name = "volley-eons-state";
constexpr int format_version = 1;

const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& source,
                             const std::string& where) {
    if (!j.is_object() || !j.contains(key))
        throw file_format_error(source, where + "/" + key, "missing key");
    return j[key];
}

template <class T>
T read(const nlohmann::json& j, const char* key, const std::string& source,
       const std::string& where, bool (nlohmann::json::*is)() const noexcept, const char* kind) {
    const nlohmann::json& v = member(j, key, source, where);
    if (!(v.*is)())
        throw file_format_error(source, where + "/" + key, v.dump() + " is not " + kind);
    return v.get<T>();
}

int read_int(const nlohmann::json& j, const char* key, const std::string& source,
             const std::string& where) {
    const auto v =
        read<std::int64_t>(j, key, source, where, &nlohmann::json::is_number_integer, "an integer");
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        throw file_format_error(source, where + "/" + key, std::to_string(v) + " is out of range");
    return static_cast<int>(v);
}

double read_double(const nlohmann::json& j, const char* key, const std::string& source,
                   const std::string& where) {
    return read<double>(j, key, source, where, &nlohmann::json::is_number, "a number");
}

const nlohmann::json& read_array(const nlohmann::json& j, const char* key,
                                 const std::string& source, const std::string& where) {
    const nlohmann::json& v = member(j, key, source, where);
    if (!v.is_array()) throw file_format_error(source, where + "/" + key, "is not an array");
    return v;
}

nlohmann::json record_to_json(const generation_record& r) {
    return {{"generation", r.generation},
            {"best", r.best},
            {"mean", r.mean},
            {"best_nodes", r.best_nodes},
            {"best_edges", r.best_edges},
            {"seconds", r.seconds},
            {"evaluations", r.evaluations}};
}

generation_record record_from_json(const nlohmann::json& j, const std::string& source,
                                   const std::string& where) {
    generation_record r;
    r.generation = read_int(j, "generation", source, where);
    r.best = read_double(j, "best", source, where);
    r.mean = read_double(j, "mean", source, where);
    r.best_nodes = read_int(j, "best_nodes", source, where);
    r.best_edges = read_int(j, "best_edges", source, where);
    r.seconds = read_double(j, "seconds", source, where);
    r.evaluations = read<std::int64_t>(j, "evaluations", source, where,
                                       &nlohmann::json::is_number_integer, "an integer");
    return r;
}

}  // namespace

nlohmann::json network_template::to_json() const {
    return {
        {"properties", properties.to_json()},
        {"inputs", inputs},
        {"outputs", outputs},
        {"network_values", network_values.is_null() ? nlohmann::json::array() : network_values}};
}

network_template network_template::from_json(const nlohmann::json& j, const std::string& source) {
    network_template t;
    t.properties = hw::property_pack::from_json(member(j, "properties", source, ""), source);
    t.inputs = read_int(j, "inputs", source, "");
    t.outputs = read_int(j, "outputs", source, "");
    t.network_values = read_array(j, "network_values", source, "");
    return t;
}

nlohmann::json evolution_state::to_json() const {
    nlohmann::json j;
    j["format"] = format_name;
    j["version"] = format_version;
    j["config"] = config.to_json();
    j["shape"] = shape.to_json();
    j["seed"] = seed;
    j["generation"] = generation;
    j["population"] = nlohmann::json::array();
    for (const auto& net : population) j["population"].push_back(net.to_json());
    j["fitness"] = nlohmann::json::array();
    for (double f : fitness)
        j["fitness"].push_back(std::isnan(f) ? nlohmann::json() : nlohmann::json(f));
    j["cases"] = nlohmann::json::array();
    for (std::size_t i = 0; i < fitness.size(); ++i)
        j["cases"].push_back(i < cases.size() && !cases[i].empty() ? nlohmann::json(cases[i]) : nlohmann::json());
    j["history"] = nlohmann::json::array();
    for (const auto& r : history) j["history"].push_back(record_to_json(r));
    j["best"] = generation == 0 ? nlohmann::json() : best.to_json();
    j["best_fitness"] = best_fitness;
    return j;
}

evolution_state evolution_state::from_json(const nlohmann::json& j, const std::string& source) {
    const nlohmann::json& format = member(j, "format", source, "");
    if (format != format_name)
        throw file_format_error(source, "/format",
                                format.dump() + " is not \"" + format_name + "\"");
    const int version = read_int(j, "version", source, "");
    if (version != format_version)
        throw file_format_error(source, "/version",
                                std::to_string(version) + " is not a supported version (1)");
    evolution_state s;
    s.config = eons_config::from_json(member(j, "config", source, ""), source + ": config");
    s.shape = network_template::from_json(member(j, "shape", source, ""), source + ": shape");
    check_template(s.shape, s.config, source + ": shape");
    s.seed = read<std::uint64_t>(j, "seed", source, "", &nlohmann::json::is_number_unsigned,
                                 "an unsigned integer");
    s.generation = read_int(j, "generation", source, "");
    if (s.generation < 0)
        throw file_format_error(source, "/generation", std::to_string(s.generation) + " is < 0");
    const auto& pop = read_array(j, "population", source, "");
    for (std::size_t i = 0; i < pop.size(); ++i) {
        const std::string object = source + ": population[" + std::to_string(i) + "]";
        s.population.push_back(hw::tennlab_network::from_json(pop[i], object));
        check_network(s.population.back(), s.shape, s.config, object);
    }
    if (s.population.size() != static_cast<std::size_t>(s.config.population))
        throw file_format_error(source, "/population",
                                std::to_string(s.population.size()) +
                                    " networks, the config's population is " +
                                    std::to_string(s.config.population));
    const auto& fit = read_array(j, "fitness", source, "");
    if (fit.size() != s.population.size())
        throw file_format_error(source, "/fitness",
                                std::to_string(fit.size()) + " entries for " +
                                    std::to_string(s.population.size()) + " networks");
    for (std::size_t i = 0; i < fit.size(); ++i) {
        if (!fit[i].is_null() && !fit[i].is_number())
            throw file_format_error(source, "/fitness/" + std::to_string(i),
                                    fit[i].dump() + " is neither a number nor null");
        s.fitness.push_back(fit[i].is_null() ? std::numeric_limits<double>::quiet_NaN()
                                             : fit[i].get<double>());
    }
    s.cases.resize(s.population.size());  // an older checkpoint has none: scored again (evolve)
    if (j.contains("cases")) {
        const auto& cases = read_array(j, "cases", source, "");
        if (cases.size() != s.population.size())
            throw file_format_error(source, "/cases",
                                    std::to_string(cases.size()) + " entries for " + std::to_string(s.population.size()) +
                                        " networks");
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const std::string where = "/cases/" + std::to_string(i);
            if (cases[i].is_null()) continue;
            if (!cases[i].is_array() || cases[i].empty())
                throw file_format_error(source, where, cases[i].dump() + " is neither a list of scores nor null");
            for (const auto& x : cases[i]) {
                if (!x.is_number() || !std::isfinite(x.get<double>()))
                    throw file_format_error(source, where, x.dump() + " is not a finite number");
                s.cases[i].push_back(x.get<double>());
            }
            if (std::isnan(s.fitness[i]))
                throw file_format_error(source, where, "has scores for a network whose fitness is null");
        }
    }
    const auto& hist = read_array(j, "history", source, "");
    for (std::size_t i = 0; i < hist.size(); ++i)
        s.history.push_back(record_from_json(hist[i], source, "/history/" + std::to_string(i)));
    const nlohmann::json& best = member(j, "best", source, "");
    if (!best.is_null()) {
        s.best = hw::tennlab_network::from_json(best, source + ": best");
        check_network(s.best, s.shape, s.config, source + ": best");
    } else if (s.generation > 0) {
        throw file_format_error(source, "/best",
                                "is null after " + std::to_string(s.generation) + " generations");
    }
    s.best_fitness = read_double(j, "best_fitness", source, "");
    return s;
}

}  // namespace volley::eons
