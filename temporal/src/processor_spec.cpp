// Processors of the temporal networks (see processor_spec.hpp).

#include <volley/temporal/processor_spec.hpp>

#include <volley/danna/processor_factory.hpp>
#include <volley/error.hpp>
#include <volley/hw/risp_params.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/json_text.hpp>

namespace volley::temporal {

nlohmann::json temporal_risp_params(const encoding_options& encoding, const risp_settings& s) {
    encoding.validate();
    const std::string object = "temporal RISP parameters";
    const int w = s.max_weight;
    if (w < 1) throw invalid_parameter(object, "max_weight", std::to_string(w), "must be >= 1");
    if (s.max_threshold < w + 1)
        throw invalid_parameter(object, "max_threshold", std::to_string(s.max_threshold),
                                "must be >= max_weight + 1 (" + std::to_string(w + 1) + ")");
    if (s.min_potential > 0)
        throw invalid_parameter(object, "min_potential", std::to_string(s.min_potential), "must be <= 0");
    const int delay = s.max_delay == 0 ? 2 * encoding.cycles_per_frame : s.max_delay;
    if (delay < encoding.cycles_per_frame + 1)
        throw invalid_parameter(object, "max_delay", std::to_string(delay),
                                "must be >= cycles_per_frame + 1 (" + std::to_string(encoding.cycles_per_frame + 1) + ")");
    return {{"discrete", true},
            {"leak_mode", s.leak ? "all" : "none"},
            {"min_threshold", 1},
            {"max_threshold", s.max_threshold},
            {"min_weight", -w},
            {"max_weight", w},
            {"spike_value_factor", w},
            {"min_potential", s.min_potential},
            {"max_delay", delay},
            {"threshold_inclusive", true}};
}

namespace {

struct preset {
    const char* name;
    int min_weight, max_weight, min_threshold, max_threshold, min_potential, max_delay;
};

constexpr preset presets[] = {
    {"risp-1+", 1, 1, 1, 1, 0, 15},         {"risp-1", -1, 1, 0, 1, -1, 15},
    {"risp-7", -7, 7, 0, 7, -7, 15},        {"risp-15+", 1, 15, 1, 15, 0, 15},
    {"risp-127", -127, 127, 0, 127, -127, 127},
};

}  // namespace

nlohmann::json risp_preset(const std::string& name) {
    if (name.size() > 5 && name.ends_with(".json")) {  // a RISP parameter file, as TENNLab's tools take it
        auto j = read_json_file(name);
        if (!j.is_object()) throw file_format_error(name, "", "RISP parameters must be a JSON object");
        try {
            (void)hw::risp_params::from_json(j);
        } catch (const file_format_error&) {
            throw;
        } catch (const error& e) {  // tennlab_error naming the parameter
            throw file_format_error(name, "", e.what());
        }
        return j;
    }
    for (const auto& p : presets)
        if (name == p.name)
            return {{"discrete", true},          {"leak_mode", "none"},
                    {"min_weight", p.min_weight}, {"max_weight", p.max_weight},
                    {"min_threshold", p.min_threshold}, {"max_threshold", p.max_threshold},
                    {"min_potential", p.min_potential}, {"max_delay", p.max_delay}};
    std::string names;
    for (const auto& p : presets) names += std::string(names.empty() ? "" : ", ") + p.name;
    throw unknown_name("RISP preset", name, "RISP processor presets (" + names + ")");
}

std::vector<std::string> risp_preset_names() {
    std::vector<std::string> names;
    for (const auto& p : presets) names.emplace_back(p.name);
    return names;
}

std::unique_ptr<hw::neuroprocessor> processor_spec::make() const {
    if (kind == "risp") return std::make_unique<hw::risp_processor>(proc_params);
    if (kind == "danna2" || kind == "danna") {
        std::vector<std::string> warnings;  // the RISP features DANNA lacks: none used here
        return danna::make_processor(kind, "risp", proc_params, warnings, grid_preset);
    }
    throw unknown_name("processor kind", kind, "temporal processor (expected risp, danna2 or danna)");
}

hw::property_pack processor_spec::network_properties() const {
    return hw::risp_params::from_json(proc_params).network_properties();
}

}  // namespace volley::temporal
