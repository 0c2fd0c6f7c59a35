// The names of the discrete_neuron resets on the command line and in the NIR import API, and
// the frameworks' names for their rules (docs/nir.md, "Reset conventions").

#include <volley/error.hpp>
#include <volley/snn/nir_network.hpp>

#include <algorithm>
#include <utility>

namespace volley::snn {

namespace {

/// A framework's name for the rule it follows, and the rule's own name.
constexpr std::pair<const char*, const char*> framework_resets[] = {
    {"zero", "to-v-reset"},
    {"norse", "to-v-reset"},
    {"sinabs", "subtract"},
    {"snntorch", "subtract-delayed"},
    {"snntorch-no-delay", "subtract-no-delay"},
    {"snntorch-rleaky-zero", "to-v-reset-delayed"},
};

std::string with(std::string s, char from, char to) {
    std::replace(s.begin(), s.end(), from, to);
    return s;
}

}  // namespace

std::string nir_reset_name(discrete_neuron::reset_mode mode) { return with(reset_mode_name(mode), '_', '-'); }

discrete_neuron::reset_mode nir_reset_from_name(const std::string& name, const std::string& object) {
    std::string rule = with(name, '_', '-');
    for (const auto& [framework, own] : framework_resets)
        if (rule == framework) rule = own;
    try {
        return reset_mode_from_name(with(rule, '-', '_'), object);
    } catch (const invalid_parameter&) {
        std::string known;
        for (const auto m : reset_modes()) known += (known.empty() ? "" : ", ") + nir_reset_name(m);
        for (const auto& [framework, own] : framework_resets) known += std::string(", ") + framework + " (" + own + ")";
        throw invalid_parameter(object, "reset", name, "expected one of " + known);
    }
}

void apply_nir_reset(const std::string& spec, nir_import_options& options, const std::string& object) {
    const auto eq = spec.rfind('=');
    if (eq == std::string::npos) {
        options.reset = nir_reset_from_name(spec, object);
        return;
    }
    const std::string node = spec.substr(0, eq);
    if (node.empty()) throw invalid_parameter(object, "reset", spec, "NODE=MODE needs a node name before '='");
    options.node_reset[node] = nir_reset_from_name(spec.substr(eq + 1), object + " " + node);
}

}  // namespace volley::snn
