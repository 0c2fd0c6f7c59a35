// The pipeline's figures as JSON (see pipeline.hpp, to_json).

#include <volley/pipeline/pipeline.hpp>

#include <cmath>

namespace volley::pipeline {

namespace {

nlohmann::json temporal_json(const std::optional<temporal_result>& t) {
    if (!t) return {{"available", false}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : t->rows)
        rows.push_back({{"question", r.question},        {"started_from", r.started_from}, {"accuracy", r.accuracy},
                        {"oracle_accuracy", r.oracle_accuracy}, {"ideal_bound", r.ideal_bound},
                        {"hand_built", r.hand_built},    {"gru", r.gru},
                        {"gru_parameters", r.gru_parameters}, {"neurons", r.neurons},
                        {"hand_built_neurons", r.hand_built_neurons}, {"hand_built_synapses", r.hand_built_synapses},
                        {"synapses", r.synapses},        {"cycles_per_sequence", r.cycles},
                        {"events_per_sequence", r.events}, {"energy_j_per_sequence", r.energy_j},
                        {"grid_placed", r.grid_placed},  {"grid_elements", r.grid_elements},
                        {"grid_differences", r.grid_differences}, {"network_file", r.network_file.string()}});
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& f : t->outputs) outputs.push_back(f.string());
    return {{"available", true},          {"questions", rows},
            {"features_s", t->features_s}, {"feature_images", t->feature_images},
            {"sequences_per_s", t->sequences_per_s}, {"eons_evaluations_per_s", t->evaluations_per_s},
            {"outputs", outputs}};
}

nlohmann::json hardware_json(const hardware_stage_result& h) {
    nlohmann::json j = {{"available", h.ran()}, {"note", h.note}};
    if (!h.ran()) return j;
    j["bits"] = h.bits;
    j["T"] = h.timesteps;
    j["images"] = h.images;
    j["integer_accuracy"] = h.integer_accuracy;
    j["float_accuracy"] = std::isnan(h.float_accuracy) ? nlohmann::json(nullptr) : nlohmann::json(h.float_accuracy);
    j["head_layer"] = h.head_layer;
    j["head_inputs"] = h.head_inputs;
    for (std::size_t k = 0; k < h.processors.size(); ++k) {
        const auto& d = h.processors[k];
        nlohmann::json events = nlohmann::json::object();
        for (const auto& [kind, v] : d.events_per_image) events[kind] = v;
        j[d.processor] = {{"head_file", d.head_file},
                          {"agreement", d.agreement},
                          {"same_counts", d.same_counts},
                          {"same_charges", d.same_charges},
                          {"charge_beyond_range", d.charge_beyond_range},
                          {"neurons", d.neurons},
                          {"synapses", d.synapses},
                          {"cycles_per_image", d.cycles_per_image},
                          {"time_s_per_image", d.time_s_per_image},
                          {"energy_j_per_image", d.energy_j_per_image},
                          {"events_per_image", events},
                          {"cost", h.checks[k].cost.to_json()}};
    }
    return j;
}

}  // namespace

nlohmann::json to_json(const pipeline_result& p) {
    const auto& o = p.options;
    const auto& snn = p.evaluation.snn;
    nlohmann::json ts = nlohmann::json::array();
    for (const auto& c : snn.checkpoints)
        ts.push_back({{"T", c.timesteps},
                      {"accuracy", c.accuracy},
                      {"agreement", c.agreement},
                      {"spikes_per_image", c.spikes_per_image},
                      {"synops_per_image", c.synops_per_image}});
    nlohmann::json layers = nlohmann::json::array();
    for (std::size_t l = 0; l < p.layer_names.size(); ++l)
        layers.push_back({{"name", p.layer_names[l]},
                          {"neurons", p.layer_neurons[l]},
                          {"lambda", p.layer_lambda[l]},
                          {"spikes_per_step", p.record.layer_rate[l]}});
    nlohmann::json stages = nlohmann::json::object();
    for (const auto& [name, s] : p.stages) stages[name] = s;
    stages["total_s"] = p.total_s;
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& f : p.outputs) outputs.push_back(f.string());
    return {{"model",
             {{"file", p.record.model_file},
              {"sha256", p.record.model_sha256},
              {"source", p.record.model_source},
              {"reason", p.model.reason},
              {"training", p.record.training},
              {"train_images", p.model.train_images},
              {"train_s", p.model.train_s}}},
            {"cnn_accuracy", p.evaluation.cnn_accuracy},
            {"cnn_accuracy_all_test", p.evaluation.cnn_accuracy_all},
            {"images", p.evaluation.images},
            {"test_images_all", p.test_images_all},
            {"norm_images", p.norm_images},
            {"threads", o.threads},
            {"v0", o.conversion.v0},
            {"readout", convert::to_string(o.evaluation.snn.readout)},
            {"timesteps", ts},
            {"layers", layers},
            {"raster", {{"image", o.raster_image}, {"label", p.raster_label}, {"steps", o.raster_steps},
                        {"prediction", p.raster.prediction}, {"spikes", p.raster.spikes}}},
            {"stages", stages},
            {"images_per_s", snn.wall_s > 0 ? static_cast<double>(p.evaluation.images) / snn.wall_s : 0.0},
            {"synops_per_s", snn.synops_per_s},
            {"hardware", hardware_json(p.hardware)},
            {"temporal", temporal_json(p.temporal)},
            {"outputs", outputs}};
}

}  // namespace volley::pipeline
