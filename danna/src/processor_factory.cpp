#include <volley/danna/processor_factory.hpp>

#include <volley/danna/danna2_processor.hpp>
#include <volley/danna/grid_processor.hpp>
#include <volley/error.hpp>
#include <volley/hw/tennlab_error.hpp>

#include <cmath>

namespace volley::danna {

namespace {

/// The RISP parameters that mean the same on a DANNA model: the threshold test, the value of an
/// input spike, and the floor of the potential (RISP's min_potential clamps the potential after
/// integration as DANNA's charge_min saturates the charge).
void adopt_risp(const nlohmann::json& risp, cycle_rules& rules, double& svf, std::vector<std::string>& warnings,
                const std::string& model) {
    if (risp.is_object()) {
        if (risp.contains("threshold_inclusive") && risp["threshold_inclusive"].is_boolean())
            rules.threshold_inclusive = risp["threshold_inclusive"].get<bool>();
        if (risp.contains("spike_value_factor") && risp["spike_value_factor"].is_number())
            svf = risp["spike_value_factor"].get<double>();
        else if (risp.contains("max_weight") && risp["max_weight"].is_number())
            svf = risp["max_weight"].get<double>();
        if (risp.contains("min_potential") && risp["min_potential"].is_number()) {
            const double floor = risp["min_potential"].get<double>();
            if (floor <= 0 && floor >= rules.charge_min) rules.charge_min = static_cast<std::int32_t>(std::ceil(floor));
        }
    }
    warnings.push_back("volley danna: running a risp network on " + model +
                       ": refractory 0, no leak, RISP's min_potential as the charge floor; RISP's leak_mode, "
                       "noise and fire_like_ravens are not modelled, and a threshold of 0 fires at every cycle "
                       "(RISP tests it only when an input arrives)");
}

void check_names(const std::string& model, const std::string& proc_name) {
    if (model != "danna" && model != "danna2")
        throw invalid_parameter("volley danna", "model", model, "must be danna or danna2");
    if (proc_name != model && proc_name != "risp")
        throw hw::tennlab_error("processor", "Processor::make() called with a name (" + proc_name +
                                                 ") not equal to " + model);
}

}  // namespace

danna2_params danna2_params_for(const std::string& proc_name, const nlohmann::json& proc_params,
                                std::vector<std::string>& warnings) {
    check_names("danna2", proc_name);
    if (proc_name == "danna2") return danna2_params::from_json(proc_params);
    danna2_params p;
    p.default_refractory = 0;
    adopt_risp(proc_params, p.rules, p.spike_value_factor, warnings, "danna2");
    return p;
}

grid_params grid_params_for(const std::string& proc_name, const nlohmann::json& proc_params,
                            std::vector<std::string>& warnings, const std::string& grid_preset_name) {
    check_names("danna", proc_name);
    if (proc_name == "danna") {
        nlohmann::json j = proc_params.is_object() ? proc_params : nlohmann::json::object();
        if (!j.contains("preset")) j["preset"] = grid_preset_name;
        return grid_params::from_json(j);
    }
    grid_params g = grid_preset(grid_preset_name);
    g.default_refractory = 0;
    adopt_risp(proc_params, g.rules, g.spike_value_factor, warnings, "danna");
    return g;
}

std::unique_ptr<hw::neuroprocessor> make_processor(const std::string& model,
                                                   const std::string& proc_name,
                                                   const nlohmann::json& proc_params,
                                                   std::vector<std::string>& warnings,
                                                   const std::string& grid_preset_name) {
    check_names(model, proc_name);
    if (model == "danna2") return std::make_unique<danna2_processor>(danna2_params_for(proc_name, proc_params, warnings));
    return std::make_unique<grid_processor>(grid_params_for(proc_name, proc_params, warnings, grid_preset_name));
}

hw::processor_factory tool_factory(const std::string& model, const std::string& grid_preset_name) {
    return [model, grid_preset_name](const std::string& name, const nlohmann::json& params,
                                     std::vector<std::string>& warnings) {
        return make_processor(model, name, params, warnings, grid_preset_name);
    };
}

}  // namespace volley::danna
