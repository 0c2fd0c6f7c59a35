// NIR files written by snnTorch 1.0 and Norse 1.1 with their own exporters, run on the engine
// with the options that reproduce each framework (docs/nir.md, "Reset conventions"): every
// layer's raster must equal, step for step, the raster that the framework itself produced. The
// snntorch_ties has quantised weights whose membrane lands exactly on the threshold 42 times,
// where snnTorch does not fire (docs/nir.md, "Threshold ties"). The
// files, the inputs and the reference rasters are in tests/data/nir/frameworks (made by
// make_fixtures.py there; this test needs no Python).

#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

namespace vs = volley::snn;

namespace {

const std::filesystem::path dir = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "nir" / "frameworks";

using raster = std::set<std::pair<std::int64_t, std::uint32_t>>;  // (step, neuron)

struct reference {
    vs::nir_import_options options;
    std::int64_t steps = 0;
    std::vector<std::vector<double>> input;
    std::map<std::string, raster> layers;
};

reference read_reference(const std::string& name) {
    std::ifstream in(dir / (name + ".json"));
    if (!in) throw std::runtime_error("cannot open " + (dir / (name + ".json")).string());
    const auto j = nlohmann::json::parse(in);
    reference r;
    const auto& o = j.at("volley_options");
    r.options.dt_s = o.at("dt_s").get<double>();
    r.options.discretisation = vs::integration_from_name(o.at("discretisation").get<std::string>(), name);
    for (const auto& spec : o.at("reset")) vs::apply_nir_reset(spec.get<std::string>(), r.options, name);
    r.steps = j.at("steps").get<std::int64_t>();
    r.input = j.at("input").get<std::vector<std::vector<double>>>();
    for (const auto& [node, spikes] : j.at("layers").items())
        for (const auto& s : spikes) r.layers[node].emplace(s.at(0).get<std::int64_t>(), s.at(1).get<std::uint32_t>());
    return r;
}

raster to_raster(const vs::nir_run_result::output_spikes& layer) {
    raster out;
    for (std::size_t k = 0; k < layer.steps.size(); ++k) out.emplace(layer.steps[k], layer.neurons[k]);
    return out;
}

/// The first few (step, neuron) pairs in `a` but not in `b`.
std::string only_in(const raster& a, const raster& b) {
    std::string out;
    int shown = 0;
    for (const auto& s : a)
        if (!b.count(s) && shown++ < 8) out += " (" + std::to_string(s.first) + ", " + std::to_string(s.second) + ")";
    return out.empty() ? " none" : out;
}

class NirFrameworks : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(NirFrameworks, EveryLayerSpikesAsInTheFrameworkThatWroteTheFile) {
    const std::string name = GetParam();
    const auto ref = read_reference(name);
    const auto m = vs::nir_to_network(vs::read_nir((dir / (name + ".nir")).string()), ref.options);
    EXPECT_TRUE(m.warnings.empty()) << m.warnings.front().message;
    for (const int threads : {1, 2}) {
        const auto r = vs::run_nir(m, {ref.input}, ref.steps, threads);
        ASSERT_EQ(r.layers.size(), ref.layers.size());
        for (const auto& layer : r.layers) {
            ASSERT_TRUE(ref.layers.count(layer.node)) << "no reference for layer " << layer.node;
            const auto& want = ref.layers.at(layer.node);
            const auto got = to_raster(layer);
            EXPECT_EQ(got, want) << name << " layer " << layer.node << " (threads " << threads << "): " << got.size()
                                 << " spikes against " << want.size() << "; only in Volley:" << only_in(got, want)
                                 << "; only in the reference:" << only_in(want, got);
            if (threads == 1) std::printf("%s layer %s: %zu spikes, identical: %s\n", name.c_str(), layer.node.c_str(),
                                          want.size(), got == want ? "yes" : "no");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(SnntorchAndNorse, NirFrameworks,
                         ::testing::Values("snntorch_leaky_subtract", "snntorch_leaky_subtract_nodelay",
                                           "snntorch_leaky_zero", "snntorch_leaky_none", "snntorch_rleaky_subtract",
                                           "snntorch_rleaky_subtract_nodelay", "snntorch_rleaky_zero",
                                           "snntorch_rleaky_zero_nodelay", "snntorch_conv", "snntorch_ties",
                                           "snntorch_ties_half", "snntorch_synaptic_subtract",
                                           "snntorch_synaptic_zero", "norse_lifbox", "norse_lif"));

// The default reset of snnTorch, read with the rule that docs/nir.md used to give for it
// (Sinabs's subtract): the rasters differ, which is why subtract-delayed exists.
TEST(NirFrameworksContrast, SinabsSubtractIsNotSnntorchsRule) {
    auto ref = read_reference("snntorch_leaky_subtract");
    ref.options.reset = vs::discrete_neuron::reset_mode::subtract;
    const auto m = vs::nir_to_network(vs::read_nir((dir / "snntorch_leaky_subtract.nir").string()), ref.options);
    const auto r = vs::run_nir(m, {ref.input}, ref.steps);
    EXPECT_NE(to_raster(r.layers.at(0)), ref.layers.at(r.layers.at(0).node));
    std::printf("snntorch_leaky_subtract layer %s with --reset subtract: %zu spikes against snnTorch's %zu\n",
                r.layers.at(0).node.c_str(), r.layers.at(0).steps.size(), ref.layers.at(r.layers.at(0).node).size());
}
