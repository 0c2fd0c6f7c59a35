// simulation::checkpoint and restore: a run of 2·T equals, spike for spike and weight for
// weight, a run of T, a checkpoint, a new simulation restored from it and T more (CUBA, Poisson
// input with plastic synapses, an ODE model, 1 and 2 threads); a checkpoint of another network,
// thread count or a damaged file (cut short, or any byte flipped) is refused naming the mismatch,
// and leaves the simulation as it was.

#include "../support/snn_test_support.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>

namespace {

namespace vs = volley::snn;
using vs::testing::raster;
using vs::testing::raster_event;
using vs::testing::throws_naming;

std::filesystem::path temp_file(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("volley_checkpoint_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / name;
}

/// Poisson input, plastic pair synapses onto LIF neurons, plastic triplet recurrence and
/// inhibition: every kind of state the CPU engine keeps for linear models.
vs::network plastic_network() {
    vs::network net;
    const auto in = net.add_population("in", 200, vs::poisson_source{{.rate_hz = 20}});
    const auto exc = net.add_population("exc", 100, vs::lif_exp{});
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    vs::stdp_pair pair{.a_plus = 0.02, .a_minus = 0.021, .w_min = 0, .w_max = 2.0};
    net.connect(in, exc, vs::fixed_probability{0.2},
                {.weight = vs::uniform{0, 2.0}, .delay_ms = vs::uniform{0.5, 3}, .plasticity = pair});
    auto trip = vs::stdp_triplet::visual_cortex(vs::stdp_pairing::nearest).scaled(0.5);
    net.connect(exc, exc, vs::fixed_probability{0.1, false}, {.weight = 0.25, .delay_ms = 1.5, .plasticity = trip});
    net.connect(exc, exc, vs::fixed_probability{0.05, false},
                {.weight = -1.0, .delay_ms = 1.0, .receptor = vs::inhibitory});
    return net;
}

struct outcome {
    std::vector<raster_event> spikes;  ///< of the second half only
    std::vector<vs::projection_weights> weights;
    std::uint64_t total_spikes = 0;
};

std::vector<raster_event> from_step(std::vector<raster_event> r, std::int64_t step) {
    std::erase_if(r, [&](const raster_event& e) { return e.step <= step; });
    return r;
}

/// Records every population of `sim`'s network.
std::vector<vs::spike_recorder> record_all(vs::simulation& sim) {
    std::vector<vs::spike_recorder> recs;
    for (std::uint32_t p = 0; p < sim.model().populations().size(); ++p) recs.push_back(sim.record_spikes({p}));
    return recs;
}

std::vector<raster_event> raster_of(const std::vector<vs::spike_recorder>& recs) {
    std::vector<raster_event> r;
    for (const auto& rec : recs)
        for (std::size_t i = 0; i < rec.size(); ++i)
            r.push_back({rec.steps()[i], rec.data().first_neuron + rec.node_ids()[i]});
    std::sort(r.begin(), r.end());
    return r;
}

outcome finish(vs::simulation& sim, const std::vector<vs::spike_recorder>& recs, std::int64_t half) {
    outcome o{from_step(raster_of(recs), half), {}, sim.stats().spikes};
    for (std::size_t q = 0; q < sim.model().projections().size(); ++q) o.weights.push_back(sim.weights(q));
    return o;
}

/// 2·ms in one go.
outcome straight(const vs::network& net, int threads, double ms, const vs::simulation_options& opt) {
    vs::simulation sim(net, vs::context{.threads = threads}, opt);
    auto recs = record_all(sim);
    sim.run(2 * ms);
    return finish(sim, recs, std::llround(ms / opt.dt_ms));
}

/// ms, checkpoint, a new simulation restored from it, ms more.
outcome resumed(const vs::network& net, int threads, double ms, const vs::simulation_options& opt,
                const std::filesystem::path& file) {
    {
        vs::simulation first(net, vs::context{.threads = threads}, opt);
        first.run(ms);
        first.checkpoint(file);
    }
    vs::simulation second(net, vs::context{.threads = threads}, opt);
    auto recs = record_all(second);
    second.restore(file);
    EXPECT_EQ(second.current_step().value, std::llround(ms / opt.dt_ms));
    second.run(ms);
    return finish(second, recs, std::llround(ms / opt.dt_ms));
}

void expect_same(const outcome& a, const outcome& b, const std::string& what) {
    ASSERT_FALSE(a.spikes.empty()) << what << ": the network must fire in the second half";
    EXPECT_EQ(a.spikes, b.spikes) << what;
    EXPECT_EQ(a.total_spikes, b.total_spikes) << what << ": the spike counter continues";
    ASSERT_EQ(a.weights.size(), b.weights.size());
    for (std::size_t q = 0; q < a.weights.size(); ++q) {
        EXPECT_EQ(a.weights[q].targets, b.weights[q].targets) << what << ", projection " << q;
        ASSERT_EQ(a.weights[q].weights.size(), b.weights[q].weights.size());
        EXPECT_EQ(std::memcmp(a.weights[q].weights.data(), b.weights[q].weights.data(),
                              a.weights[q].weights.size() * sizeof(double)),
                  0)
            << what << ": weights of projection " << q << " differ";
    }
}

TEST(Checkpoint, CubaResumesSpikeForSpike) {
    const auto net = vs::cuba_network(2000);
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 5};
    for (int threads : {1, 2}) {
        const auto file = temp_file("cuba_" + std::to_string(threads) + ".h5");
        expect_same(straight(net, threads, 100, opt), resumed(net, threads, 100, opt, file),
                    "CUBA, " + std::to_string(threads) + " threads");
    }
}

TEST(Checkpoint, PlasticNetworkResumesWeightForWeight) {
    const auto net = plastic_network();
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 11};
    for (int threads : {1, 2}) {
        const auto a = straight(net, threads, 300, opt);
        const auto b = resumed(net, threads, 300, opt, temp_file("plastic.h5"));
        expect_same(a, b, "plastic, " + std::to_string(threads) + " threads");
        // The weights did move in the second half: the checkpoint carried learnt weights.
        const auto built = vs::simulation(net, vs::context{}, opt).weights(0);
        std::size_t changed = 0;
        for (std::size_t k = 0; k < built.size(); ++k) changed += built.weights[k] != b.weights[0].weights[k];
        EXPECT_GT(changed, built.size() / 2);
    }
}

TEST(Checkpoint, ConductanceModelResumesSpikeForSpike) {
    // Each network with its default fixed-step scheme and with the adaptive one, whose step-size
    // guess is part of the state.
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 3};
    for (const bool adaptive : {false, true}) {
        auto net = vs::coba_network(4000);
        auto hh = vs::cobahh_network(400);
        if (adaptive)
            for (auto* n : {&net, &hh})
                for (const char* pop : {"exc", "inh"}) {
                    auto in = *vs::model_integrator(n->at(n->find(pop)).model);
                    in.scheme = vs::ode_scheme::adaptive;
                    n->set_integrator(n->find(pop), in);
                }
        const std::string how = adaptive ? " adaptive" : " default scheme";
        expect_same(straight(net, 1, 50, opt), resumed(net, 1, 50, opt, temp_file("coba.h5")), "COBA" + how);
        expect_same(straight(hh, 2, 50, opt), resumed(hh, 2, 50, opt, temp_file("cobahh.h5")), "COBA-HH" + how);
    }
}

TEST(Checkpoint, AnotherNetworkThreadCountOrSeedIsRefused) {
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 5};
    const auto file = temp_file("refuse.h5");
    {
        vs::simulation sim(vs::cuba_network(500), vs::context{.threads = 2}, opt);
        sim.run(10);
        sim.checkpoint(file);
    }
    vs::simulation other(vs::cuba_network(600), vs::context{.threads = 2}, opt);
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { other.restore(file); }, {file.string(), "network_sha256"}));
    vs::simulation seeded(vs::cuba_network(500), vs::context{.threads = 2}, {.dt_ms = 0.1, .seed = 6});
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { seeded.restore(file); }, {"network_sha256", "seed"}));
    vs::simulation one(vs::cuba_network(500), vs::context{.threads = 1}, opt);
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { one.restore(file); }, {"threads", "2"}));
    EXPECT_EQ(one.current_step().value, 0);
}

TEST(Checkpoint, ADamagedFileIsAnErrorAndLeavesTheSimulationAsItWas) {
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 5};
    const auto net = vs::cuba_network(500);
    const auto file = temp_file("damaged.h5");
    {
        vs::simulation sim(net, vs::context{}, opt);
        sim.run(10);
        sim.checkpoint(file);
    }
    // Cut one record short: the restore fails naming it, and the simulation runs on as if
    // it had never been asked.
    {
        auto h5 = vs::detail::open_hdf5_file(file, true);
        ASSERT_EQ(H5Ldelete(h5.get(), "/state/population1:v", H5P_DEFAULT), 0);
        const std::uint8_t three[3] = {1, 2, 3};
        auto g = vs::detail::open_group_if_present(h5.get(), "state");
        hsize_t n = 3;
        const hid_t space = H5Screate_simple(1, &n, nullptr);
        const hid_t ds = H5Dcreate2(g.get(), "population1:v", H5T_STD_U8LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(ds, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, three);
        H5Dclose(ds);
        H5Sclose(space);
    }
    vs::simulation sim(net, vs::context{}, opt);
    auto rec = sim.record_spikes({1});
    sim.run(5);
    EXPECT_TRUE(throws_naming<volley::file_format_error>([&] { sim.restore(file); }, {file.string(), "damaged"}));
    EXPECT_EQ(sim.current_step().value, 50);
    sim.run(45);
    vs::simulation clean(net, vs::context{}, opt);
    auto clean_rec = clean.record_spikes({1});
    clean.run(50);
    EXPECT_EQ(raster({&rec}), raster({&clean_rec}));

    std::ofstream(temp_file("not_h5.h5")) << "not a checkpoint";
    EXPECT_TRUE(throws_naming<volley::error>([&] { sim.restore(temp_file("not_h5.h5")); }, {"not_h5.h5"}));
    EXPECT_TRUE(throws_naming<volley::error>([&] { sim.restore(temp_file("absent.h5")); }, {"absent.h5"}));
}

/// A copy of `file` cut to `size` bytes, or with byte `flip` inverted.
std::filesystem::path damaged_copy(const std::filesystem::path& file, std::size_t size, std::size_t flip = SIZE_MAX) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes.resize(std::min(size, bytes.size()));
    if (flip < bytes.size()) bytes[flip] = static_cast<char>(~bytes[flip]);
    const auto out = temp_file("cut.h5");
    std::ofstream(out, std::ios::binary | std::ios::trunc) << bytes;
    return out;
}

TEST(Checkpoint, ACutShortCheckpointIsATypedErrorAtEveryLength) {
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 5};
    const auto net = vs::cuba_network(300);
    const auto file = temp_file("whole.h5");
    {
        vs::simulation sim(net, vs::context{}, opt);
        sim.run(10);
        sim.checkpoint(file);
    }
    const std::size_t size = std::filesystem::file_size(file);
    vs::simulation sim(net, vs::context{}, opt);
    auto rec = sim.record_spikes({0});
    sim.run(5);
    for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{96}, std::size_t{2048}, size / 4, size / 2,
                            size - 4096, size - 1}) {
        const auto copy = damaged_copy(file, cut);
        EXPECT_TRUE(throws_naming<volley::error>([&] { sim.restore(copy); }, {copy.string()})) << "cut at " << cut;
        EXPECT_EQ(sim.current_step().value, 50) << "cut at " << cut;
    }
    sim.run(5);
    vs::simulation clean(net, vs::context{}, opt);
    auto clean_rec = clean.record_spikes({0});
    clean.run(10);
    EXPECT_EQ(raster({&rec}), raster({&clean_rec}));
}

// Every flipped byte that changes what the reader takes in (header, attributes, B-trees, object
// headers, record bytes) is refused: by HDF5, by the fixed-length attribute check, or by the
// SHA-256 over header and records. A flip in bytes no reader touches (free space, padding) restores
// the same state as the intact file. Never a crash, never a changed state.
TEST(Checkpoint, AnyFlippedByteIsRefusedOrChangesNothing) {
    const vs::simulation_options opt{.dt_ms = 0.1, .seed = 5};
    const auto net = vs::cuba_network(200);
    const auto file = temp_file("intact.h5");
    {
        vs::simulation sim(net, vs::context{}, opt);
        sim.run(10);
        sim.checkpoint(file);
    }
    auto raster_after_restore = [&](const std::filesystem::path& from) {
        vs::simulation sim(net, vs::context{}, opt);
        auto rec = sim.record_spikes({0});
        sim.restore(from);
        sim.run(3);
        return raster({&rec});
    };
    const auto expected = raster_after_restore(file);
    ASSERT_FALSE(expected.empty());
    const std::size_t size = std::filesystem::file_size(file);
    std::vector<std::size_t> offsets;
    for (std::size_t k = 0; k < 2048 && k < size; k += 71) offsets.push_back(k);  // superblock, root object
    for (std::size_t k = 2048; k < size; k += size / 24) offsets.push_back(k);
    offsets.push_back(size - 1);
    int refused = 0;
    for (std::size_t at : offsets) {
        const auto copy = damaged_copy(file, SIZE_MAX, at);
        try {
            EXPECT_EQ(raster_after_restore(copy), expected) << "byte " << at << " flipped was restored differently";
        } catch (const volley::error& e) {
            ++refused;
            EXPECT_NE(std::string(e.what()).find(copy.string()), std::string::npos) << e.what();
        }
    }
    EXPECT_GE(refused, 20) << "of " << offsets.size() << " flips";
}

TEST(Checkpoint, ACheckpointNeverLeavesAHalfWrittenFile) {
    const auto file = temp_file("kept.h5");
    vs::simulation sim(vs::cuba_network(300), vs::context{}, {.dt_ms = 0.1, .seed = 1});
    sim.run(5);
    sim.checkpoint(file);
    const auto size = std::filesystem::file_size(file);
    // A folder in the way of the temporary file: the checkpoint fails and the old one stays.
    std::filesystem::create_directories(file.string() + ".tmp");
    sim.run(5);
    EXPECT_THROW(sim.checkpoint(file), volley::error);
    std::filesystem::remove_all(file.string() + ".tmp");
    EXPECT_EQ(std::filesystem::file_size(file), size);
    vs::simulation again(vs::cuba_network(300), vs::context{}, {.dt_ms = 0.1, .seed = 1});
    again.restore(file);
    EXPECT_EQ(again.current_step().value, 50);
}

}  // namespace
