// Checkpoints of a converted CNN (tests/data/convert/fmnist_small_torch.h5): convolutions, the
// gated max-pool, integrate-and-fire layers driven by a bias or by a spike-coded analog input
// table. T steps, a checkpoint, a new simulation restored from it and T more give the spikes of
// 2·T steps in one go, in every population.

#include "../support/conversion_test_support.hpp"

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace {

namespace vc = volley::convert;
namespace vs = volley::snn;

const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

struct spike {
    std::int64_t step;
    std::uint32_t pop, neuron;
    friend auto operator<=>(const spike&, const spike&) = default;
};

/// A deterministic image with values in [0, 1).
std::vector<float> image(std::size_t n) {
    std::vector<float> x(n);
    std::uint64_t s = 12345;
    for (auto& v : x) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v = static_cast<float>((s >> 40) & 0xffff) / 65536.0f;
    }
    return x;
}

/// Feeds the image as the network's coding needs: a bias on the first layer, or an input table.
void feed(vs::simulation& sim, const vc::converted_snn& net, std::int64_t steps) {
    const auto x = image(net.image_size());
    if (!net.input) {
        sim.set_input(net.layers.front().population, volley::snn::constant_input{net.first_layer_current(x)});
        return;
    }
    std::vector<std::vector<double>> table(static_cast<std::size_t>(steps), std::vector<double>(x.size()));
    for (std::size_t s = 0; s < table.size(); ++s)
        for (std::size_t i = 0; i < x.size(); ++i) table[s][i] = (s + i) % 3 == 0 ? x[i] : 0.0;
    sim.set_input(*net.input, volley::snn::step_table_input{std::move(table)});
}

std::vector<spike> run(const vc::converted_snn& net, std::int64_t steps, const std::filesystem::path* file) {
    const vs::simulation_options opt{.dt_ms = 1.0, .seed = 9};
    std::vector<vs::spike_recorder> recs;
    auto record = [&](vs::simulation& sim) {
        for (std::uint32_t p = 0; p < net.network.populations().size(); ++p) recs.push_back(sim.record_spikes({p}));
    };
    vs::simulation sim(net.network, vs::context{}, opt);
    if (file) {
        vs::simulation first(net.network, vs::context{}, opt);
        feed(first, net, 2 * steps);
        first.run(static_cast<double>(steps));
        first.checkpoint(*file);
        record(sim);
        sim.restore(*file);  // the input table and biases come with the state
        sim.run(static_cast<double>(steps));
    } else {
        feed(sim, net, 2 * steps);
        record(sim);
        sim.run(static_cast<double>(2 * steps));
    }
    std::vector<spike> out;
    for (std::uint32_t p = 0; p < recs.size(); ++p)
        for (std::size_t i = 0; i < recs[p].size(); ++i)
            if (recs[p].steps()[i] > steps) out.push_back({recs[p].steps()[i], p, recs[p].node_ids()[i]});
    std::sort(out.begin(), out.end());
    return out;
}

TEST(CheckpointConverted, EveryCodingResumesSpikeForSpike) {
    const auto graph = vc::read_cnn(torch_file);
    const auto file = std::filesystem::temp_directory_path() / ("volley_checkpoint_cnn_" + std::to_string(::getpid()) + ".h5");
    for (const auto coding : {vc::input_coding::constant_current, vc::input_coding::poisson, vc::input_coding::ttfs}) {
        vc::conversion_options o;
        o.input = coding;
        o.v0 = 0.5;
        const auto net = vc::convert_to_snn(graph, volley::convert::testing::unit_scales(graph.nodes.size()), o);
        const auto straight = run(net, 24, nullptr);
        const auto resumed = run(net, 24, &file);
        EXPECT_GT(straight.size(), 100u) << vc::to_string(coding);
        EXPECT_EQ(straight, resumed) << vc::to_string(coding);
    }
    std::filesystem::remove(file);
}

}  // namespace
