// Writes the seed inputs of tests/fuzz/corpus that no fixture of tests/data provides, with the
// library's own writers (small valid files): a Volley network file, a checkpoint, a SONATA spike
// file, a SONATA state report, a weight file, a spike CSV, a DANNA programme, and the "tiny" CNN in the Volley and Keras HDF5 layouts
// with a two-image reference batch. Run by hand when a format changes:
//   build/fuzz/tests/fuzz/fuzz_make_seeds tests/fuzz/corpus
// then shrink the SONATA file's chunks (8192 elements by default, 277 KB) to 16 (18 KB), and
// store the report and the weight file contiguously (their chunks made them 2.1 MB and 1.0 MB;
// 11 KB and 8 KB so):
//   h5repack -l CHUNK=16 two_populations.h5 small.h5 && mv small.h5 two_populations.h5
//   h5repack -l CONTI two_reports.h5 small.h5 && mv small.h5 two_reports.h5
//   h5repack -l CONTI plastic.h5 small.h5 && mv small.h5 plastic.h5
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/model_writers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/convert/sequential_model.hpp>
#include <volley/danna/grid_benchmark.hpp>
#include <volley/danna/grid_programme.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/weights_file.hpp>
#include <volley/snn/spike_csv.hpp>
#include <volley/snn/standard_networks.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

namespace vs = volley::snn;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: fuzz_make_seeds CORPUS_DIR\n";
        return 2;
    }
    const std::filesystem::path out = argv[1];
    auto dir = [&](const char* target) {
        std::filesystem::create_directories(out / target);
        return out / target;
    };

    // A small network with every kind of state: Poisson input, plastic synapses, inhibition.
    vs::network net;
    const auto in = net.add_population("in", 8, vs::poisson_source{{.rate_hz = 50}});
    const auto exc = net.add_population("exc", 6, vs::lif_exp{});
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    net.connect(in, exc, vs::fixed_probability{0.5},
                {.weight = vs::uniform{0, 2.0}, .delay_ms = vs::uniform{0.5, 3},
                 .plasticity = vs::stdp_pair{.a_plus = 0.02, .a_minus = 0.021, .w_min = 0, .w_max = 2.0}});
    net.connect(exc, exc, vs::fixed_probability{0.3, false},
                {.weight = -1.0, .delay_ms = 1.0, .receptor = vs::inhibitory});
    std::ofstream(dir("network_json") / "small_plastic.json") << vs::to_network_json(net, {.duration_ms = 20});
    std::ofstream(dir("network_json") / "cuba_40.json") << vs::to_network_json(vs::cuba_network(40), {.duration_ms = 5});

    vs::simulation sim(net, vs::context{}, vs::simulation_options{});
    auto rec = sim.record_spikes(exc);
    sim.run(20);
    sim.checkpoint(dir("checkpoint") / "small_plastic.ckpt");

    std::vector<vs::population_spikes> pops{{"in", {0, 3, 7, 1}, {0.5, 1.25, 2.0, 7.5}},
                                            {"exc", {2, 5}, {3.0, 4.5}}};
    {
        vs::sonata_spike_writer w(dir("sonata_spikes") / "two_populations.h5");
        for (const auto& p : pops) {
            const auto i = w.add_population(p.population);
            w.append(i, p.node_ids, p.timestamps_ms);
        }
        w.close();
    }
    vs::write_spike_csv(dir("spike_csv") / "two_populations.csv", pops);

    volley::danna::save_programme(volley::danna::benchmark_programme("tiny", 2),
                                  (dir("danna_programme") / "benchmark_tiny.json").string());
    // The smallest CNN the converter takes (conv(4, 3x3, stride 2)-ReLU-dense(10): 6.8 k
    // parameters), with two images of a fixed pattern as its reference batch.
    {
        namespace vc = volley::convert;
        const auto model = vc::make_model("tiny", 1);
        vc::image_dataset images;
        images.pixels.resize(2 * images.image_size());
        for (std::size_t k = 0; k < images.pixels.size(); ++k)
            images.pixels[k] = static_cast<float>(k % 17) / 16.0F;
        images.labels = {3, 7};
        const auto batch = vc::make_reference_batch(model, images, 2);
        vc::write_volley_h5(model, dir("volley_cnn_h5") / "tiny.h5", batch, {});
        vc::write_keras_h5(model, dir("keras_h5") / "tiny.h5", batch, {});
        // The same CNN converted (volley convert --out snn.h5), λ from its two images.
        const auto graph = vc::read_volley_h5(dir("volley_cnn_h5") / "tiny.h5");
        vc::tensor<float> norm(graph.input_shape.with_batch(2));
        std::copy_n(images.pixels.begin(), norm.values.size(), norm.values.begin());
        const auto net = vc::convert_to_snn(graph, vc::compute_layer_scales(graph, norm));
        vc::write_snn_h5({.snn = net}, (dir("converted_snn") / "tiny.h5").string());
    }
    // A state report (two variables of a population, three samples) and a weight file (a plastic
    // projection with its weight history).
    {
        vs::sonata_report_writer w(dir("sonata_report") / "two_reports.h5");
        const std::vector<std::uint64_t> nodes{0, 2, 5};
        const auto v = w.add_report("exc", "v_mv", "mV", nodes, 0.0, 0.1);
        const auto g = w.add_report("exc", "g_e_ns", "nS", nodes, 0.0, 0.1);
        for (int k = 0; k < 3; ++k) {
            w.append(v, std::vector<double>{-65.0 + k, -60.0 - k, -55.5});
            w.append(g, std::vector<double>{0.0, 0.5 * k, 1.0});
        }
        w.close();
    }
    vs::write_weights(dir("weights_h5") / "plastic.h5",
                      {{.projection = 0, .source = "in", .target = "exc", .rule = "stdp_pair",
                        .sources = {0, 1, 3}, .targets = {2, 2, 5}, .weights = {0.5, 1.25, 2.0}, .time_ms = 20,
                        .history_time_ms = {0, 10}, .history = {0.4, 1.0, 2.0, 0.5, 1.25, 2.0}}});
    std::cout << "seeds written under " << out << "\n";
    return 0;
}
