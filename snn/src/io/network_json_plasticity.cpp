// The "plasticity" object of a projection in the Volley network JSON format
// (docs/network-format.md, docs/plasticity.md).

#include "io/json_node.hpp"

namespace volley::snn::detail {

namespace {

using ojson = nlohmann::ordered_json;

stdp_pairing read_pairing(const node& n) {
    const auto s = n.string();
    if (s == "all_to_all") return stdp_pairing::all_to_all;
    if (s == "nearest") return stdp_pairing::nearest;
    n.fail("unknown pairing \"" + s + "\" (known: all_to_all, nearest)");
}

}  // namespace

plasticity_rule read_plasticity(const node& n) {
    const auto type = n.at("type").string();
    auto numbers = [&](std::initializer_list<std::pair<const char*, double*>> fields) {
        for (const auto& [key, field] : fields)
            if (n.has(key)) *field = n.at(key).number();
    };
    if (type == "stdp_pair") {
        n.only_keys({"type", "tau_plus_ms", "tau_minus_ms", "a_plus", "a_minus", "w_min", "w_max", "weight_dependence",
                     "pairing", "mu", "dendritic_delay_ms"});
        stdp_pair r;
        numbers({{"tau_plus_ms", &r.tau_plus_ms}, {"tau_minus_ms", &r.tau_minus_ms}, {"a_plus", &r.a_plus},
                 {"a_minus", &r.a_minus}, {"w_min", &r.w_min}, {"w_max", &r.w_max}, {"mu", &r.mu},
                 {"dendritic_delay_ms", &r.dendritic_delay_ms}});
        if (n.has("pairing")) r.pairing = read_pairing(n.at("pairing"));
        if (n.has("weight_dependence")) {
            const auto d = n.at("weight_dependence").string();
            if (d == "additive") r.dependence = stdp_weight_dependence::additive;
            else if (d == "multiplicative") r.dependence = stdp_weight_dependence::multiplicative;
            else if (d == "soft_bounds") r.dependence = stdp_weight_dependence::soft_bounds;
            else if (d == "power_law") r.dependence = stdp_weight_dependence::power_law;
            else n.at("weight_dependence").fail("unknown weight_dependence \"" + d +
                                                "\" (known: additive, multiplicative, soft_bounds, power_law)");
        }
        if (n.has("mu") && r.dependence != stdp_weight_dependence::power_law) {
            n.at("mu").fail("\"mu\" is the exponent of the power_law weight dependence only");
        }
        return r;
    }
    if (type == "stdp_triplet") {
        n.only_keys({"type", "preset", "pairing", "scale", "tau_plus_ms", "tau_minus_ms", "tau_x_ms", "tau_y_ms", "a2_plus",
                     "a3_plus", "a2_minus", "a3_minus", "w_min", "w_max"});
        const auto pairing = n.has("pairing") ? read_pairing(n.at("pairing")) : stdp_pairing::all_to_all;
        bool minimal = false;
        if (n.has("preset")) {
            const auto p = n.at("preset").string();
            if (p == "visual_cortex_minimal") minimal = true;
            else if (p != "visual_cortex") n.at("preset").fail("unknown preset \"" + p + "\" (known: visual_cortex, visual_cortex_minimal)");
        }
        auto r = stdp_triplet::visual_cortex(pairing, minimal);
        if (n.has("scale")) {
            const auto s = n.at("scale");
            r = at_node(s, [&] { return r.scaled(s.number()); });
        }
        numbers({{"tau_plus_ms", &r.tau_plus_ms}, {"tau_minus_ms", &r.tau_minus_ms}, {"tau_x_ms", &r.tau_x_ms},
                 {"tau_y_ms", &r.tau_y_ms}, {"a2_plus", &r.a2_plus}, {"a3_plus", &r.a3_plus}, {"a2_minus", &r.a2_minus},
                 {"a3_minus", &r.a3_minus}, {"w_min", &r.w_min}, {"w_max", &r.w_max}});
        return r;
    }
    if (type == "tsodyks_markram") {
        n.only_keys({"type", "u", "tau_rec_ms", "tau_facil_ms", "tau_psc_ms"});
        tsodyks_markram r;
        for (auto [key, field] : {std::pair{"u", &r.u}, std::pair{"tau_rec_ms", &r.tau_rec_ms},
                                  std::pair{"tau_facil_ms", &r.tau_facil_ms}, std::pair{"tau_psc_ms", &r.tau_psc_ms}})
            if (n.has(key)) *field = read_value(n.at(key));
        return r;
    }
    if (type == "stochastic_release") {
        n.only_keys({"type", "p_transmit"});
        return stochastic_release{read_value(n.at("p_transmit"))};
    }
    if (type == "quantal_release") {
        n.only_keys({"type", "u", "tau_rec_ms", "tau_facil_ms", "sites", "initial_u", "initial_available"});
        quantal_release r;
        for (auto [key, field] : {std::pair{"u", &r.u}, std::pair{"tau_rec_ms", &r.tau_rec_ms},
                                  std::pair{"tau_facil_ms", &r.tau_facil_ms}, std::pair{"sites", &r.sites}})
            if (n.has(key)) *field = read_value(n.at(key));
        if (n.has("initial_u")) r.initial_u = read_value(n.at("initial_u"));
        if (n.has("initial_available")) r.initial_available = read_value(n.at("initial_available"));
        return r;
    }
    n.at("type").fail("unknown plasticity type \"" + type +
                      "\" (known: stdp_pair, stdp_triplet, tsodyks_markram, stochastic_release, quantal_release)");
}

ojson write_plasticity(const plasticity_rule& rule) {
    const char* pairing_names[] = {"all_to_all", "nearest"};
    const char* dependence_names[] = {"additive", "multiplicative", "soft_bounds", "power_law"};
    if (const auto* p = std::get_if<stdp_pair>(&rule)) {
        ojson o = {{"type", "stdp_pair"},
                   {"tau_plus_ms", p->tau_plus_ms},
                   {"tau_minus_ms", p->tau_minus_ms},
                   {"a_plus", p->a_plus},
                   {"a_minus", p->a_minus},
                   {"w_min", p->w_min},
                   {"w_max", p->w_max},
                   {"weight_dependence", dependence_names[static_cast<int>(p->dependence)]},
                   {"pairing", pairing_names[static_cast<int>(p->pairing)]}};
        if (p->dependence == stdp_weight_dependence::power_law) o["mu"] = p->mu;
        if (p->dendritic_delay_ms != 0) o["dendritic_delay_ms"] = p->dendritic_delay_ms;  // older files stay as they were
        return o;
    }
    if (const auto* m = std::get_if<tsodyks_markram>(&rule))
        return {{"type", "tsodyks_markram"},
                {"u", write_value(m->u)},
                {"tau_rec_ms", write_value(m->tau_rec_ms)},
                {"tau_facil_ms", write_value(m->tau_facil_ms)},
                {"tau_psc_ms", write_value(m->tau_psc_ms)}};
    if (const auto* b = std::get_if<stochastic_release>(&rule))
        return {{"type", "stochastic_release"}, {"p_transmit", write_value(b->p_transmit)}};
    if (const auto* q = std::get_if<quantal_release>(&rule)) {
        ojson o = {{"type", "quantal_release"},
                   {"u", write_value(q->u)},
                   {"tau_rec_ms", write_value(q->tau_rec_ms)},
                   {"tau_facil_ms", write_value(q->tau_facil_ms)},
                   {"sites", write_value(q->sites)}};
        if (q->initial_u) o["initial_u"] = write_value(*q->initial_u);
        if (q->initial_available) o["initial_available"] = write_value(*q->initial_available);
        return o;
    }
    const auto& t = std::get<stdp_triplet>(rule);
    return {{"type", "stdp_triplet"},   {"pairing", pairing_names[static_cast<int>(t.pairing)]},
            {"tau_plus_ms", t.tau_plus_ms}, {"tau_minus_ms", t.tau_minus_ms},
            {"tau_x_ms", t.tau_x_ms},       {"tau_y_ms", t.tau_y_ms},
            {"a2_plus", t.a2_plus},         {"a3_plus", t.a3_plus},
            {"a2_minus", t.a2_minus},       {"a3_minus", t.a3_minus},
            {"w_min", t.w_min},             {"w_max", t.w_max}};
}

}  // namespace volley::snn::detail
