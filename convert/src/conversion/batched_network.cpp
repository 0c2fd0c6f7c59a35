// Images as a batch dimension of a converted network (see batched_network.hpp).

#include "conversion/batched_network.hpp"

#include <volley/error.hpp>

#include <limits>
#include <string>
#include <variant>

namespace volley::convert::detail {

namespace {

using snn::value_spec;

[[noreturn]] void cannot(const std::string& what, const std::string& why) {
    throw unsupported_model("batched network", what + ": " + why + "; a batch of images needs block copies");
}

/// `values` once per image, back to back.
std::vector<double> tiled(const std::vector<double>& values, std::uint32_t images) {
    std::vector<double> out;
    out.reserve(values.size() * images);
    for (std::uint32_t b = 0; b < images; ++b) out.insert(out.end(), values.begin(), values.end());
    return out;
}

/// A per-neuron (or one_to_one per-synapse) value for B blocks: a constant stays, a list is
/// tiled; a distribution cannot be (its draws are keyed by the index).
value_spec repeated(const value_spec& v, std::uint32_t images, const std::string& what) {
    if (std::holds_alternative<double>(v)) return v;
    const auto* list = std::get_if<std::vector<double>>(&v);
    if (!list) cannot(what, "a random value");
    return tiled(*list, images);
}

/// The synapses of a from_list or all_to_all projection: (source, target) pairs, and where each
/// one's value sits in a per-synapse list (all_to_all: [source * n_target + target], also for
/// the autapses it leaves out).
struct synapse_pairs {
    snn::from_list pairs;
    std::vector<std::size_t> value_at;
};

synapse_pairs pairs_of(const snn::connector& rule, std::uint32_t n_source, std::uint32_t n_target, bool same) {
    synapse_pairs out;
    if (const auto* l = std::get_if<snn::from_list>(&rule)) {
        out.pairs = *l;
        for (std::size_t k = 0; k < l->sources.size(); ++k) out.value_at.push_back(k);
        return out;
    }
    const auto& a = std::get<snn::all_to_all>(rule);
    for (std::uint32_t s = 0; s < n_source; ++s)
        for (std::uint32_t t = 0; t < n_target; ++t) {
            if (same && !a.allow_autapses && s == t) continue;
            out.pairs.sources.push_back(s);
            out.pairs.targets.push_back(t);
            out.value_at.push_back(std::size_t{s} * n_target + t);
        }
    return out;
}

/// A per-synapse value of `block` for B blocks: a constant stays, a list is read at each
/// synapse's place, block after block; a distribution cannot be.
value_spec per_block(const value_spec& v, const synapse_pairs& block, std::uint32_t images, const std::string& what) {
    if (std::holds_alternative<double>(v)) return v;
    const auto* list = std::get_if<std::vector<double>>(&v);
    if (!list) cannot(what, "a random value");
    std::vector<double> out;
    out.reserve(block.value_at.size() * images);
    for (std::uint32_t b = 0; b < images; ++b)
        for (const std::size_t k : block.value_at) out.push_back((*list)[k]);
    return out;
}

}  // namespace

snn::network batched_network(const snn::network& net, std::uint32_t images) {
    if (images == 0) throw invalid_parameter("batched network", "images", "0", "must be >= 1");
    if (!net.stimuli().empty()) cannot("the network", "current stimuli");
    snn::network out;
    for (const auto& p : net.populations()) {
        const std::string what = "population '" + p.name + "'";
        if (std::uint64_t{p.size} * images > std::numeric_limits<std::uint32_t>::max())
            throw invalid_parameter(what, "size", std::to_string(std::uint64_t{p.size} * images),
                                    "too many neurons for a batch of " + std::to_string(images) + " images");
        snn::neuron_model model = p.model;
        if (auto* a = std::get_if<snn::analog_source>(&model))
            for (auto& row : a->values) row = tiled(row, images);
        const auto pop = out.add_population(p.name, p.size * images, std::move(model));
        for (const auto& [name, v] : p.parameters) out.set_parameter(pop, name, repeated(v, images, what + " " + name));
        for (const auto& [name, v] : p.initial_values) out.initialise(pop, name, repeated(v, images, what + " " + name));
    }
    const auto& pops = net.populations();
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& pr = net.projections()[q];
        const std::uint32_t ns = pops[pr.source.value].size, nt = pops[pr.target.value].size;
        const std::string what = "projection " + std::to_string(q) + " ('" + pops[pr.source.value].name + "' -> '" +
                                 pops[pr.target.value].name + "')";
        if (snn::is_plastic(pr.synapse.plasticity)) cannot(what, "plasticity");
        snn::synapse_spec syn = pr.synapse;
        snn::connector rule;
        if (auto c = std::get_if<snn::convolution>(&pr.rule)) {
            snn::convolution b = *c;
            b.in_channels *= images, b.out_channels *= images, b.groups *= images;
            b.kernel = tiled(c->kernel, images);
            rule = std::move(b);
        } else if (auto g = std::get_if<snn::max_pool_gate>(&pr.rule)) {
            snn::max_pool_gate b = *g;
            b.channels *= images;
            rule = b;
        } else if (std::holds_alternative<snn::one_to_one>(pr.rule)) {
            rule = pr.rule;
            syn.weight = repeated(pr.synapse.weight, images, what + " weight");
            syn.delay_ms = repeated(pr.synapse.delay_ms, images, what + " delay_ms");
        } else if (std::holds_alternative<snn::from_list>(pr.rule) || std::holds_alternative<snn::all_to_all>(pr.rule)) {
            const auto block = pairs_of(pr.rule, ns, nt, pr.source == pr.target);
            snn::from_list l;
            l.sources.reserve(block.value_at.size() * images);
            l.targets.reserve(block.value_at.size() * images);
            for (std::uint32_t b = 0; b < images; ++b)
                for (std::size_t k = 0; k < block.value_at.size(); ++k) {
                    l.sources.push_back(b * ns + block.pairs.sources[k]);
                    l.targets.push_back(b * nt + block.pairs.targets[k]);
                }
            rule = std::move(l);
            syn.weight = per_block(pr.synapse.weight, block, images, what + " weight");
            syn.delay_ms = per_block(pr.synapse.delay_ms, block, images, what + " delay_ms");
        } else {
            cannot(what, "a random connector");
        }
        out.connect(pr.source, pr.target, std::move(rule), std::move(syn));
    }
    return out;
}

}  // namespace volley::convert::detail
