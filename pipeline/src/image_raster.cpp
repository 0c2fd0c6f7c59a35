// One image's spikes per layer (see image_raster.hpp).

#include <volley/pipeline/image_raster.hpp>

#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>
#include <volley/snn/raster_plot.hpp>
#include <volley/snn/simulation.hpp>

namespace volley::pipeline {

recorded_image record_image_spikes(const convert::converted_snn& net, std::span<const float> image,
                                   std::int64_t steps, std::uint64_t seed, convert::readout_rule readout) {
    if (steps < 1) throw invalid_parameter("raster", "steps", std::to_string(steps), "must be >= 1");
    if (net.input)
        throw invalid_parameter("raster", "input coding", convert::to_string(net.options.input),
                                "the one-image recording supports the constant-current coding only");
    snn::simulation sim(net.network, snn::context{.threads = 1}, snn::simulation_options{.dt_ms = 1.0, .seed = seed});
    std::vector<snn::spike_recorder> recorders;
    for (const auto& layer : net.layers) recorders.push_back(sim.record_spikes(layer.population));
    auto out_v = sim.record_state(net.layers.back().population, "v", 1.0);
    sim.set_input(net.layers.front().population, volley::snn::constant_input{net.first_layer_current(image)});
    sim.run(static_cast<double>(steps));

    recorded_image rec;
    for (std::size_t l = 0; l < net.layers.size(); ++l) {
        layer_spike_train t;
        t.layer = net.layers[l].name;
        const auto& ids = recorders[l].node_ids();
        t.node_ids.assign(ids.begin(), ids.end());
        t.times_ms = recorders[l].times_ms();
        rec.spikes += t.node_ids.size();
        rec.layers.push_back(std::move(t));
    }
    const std::size_t classes = net.classes();
    std::vector<std::uint32_t> counts(classes, 0);
    for (const auto id : rec.layers.back().node_ids) ++counts[id];
    const auto& d = out_v.data();
    std::vector<double> v(classes, 0.0);
    if (d.values.size() >= classes) std::copy(d.values.end() - static_cast<std::ptrdiff_t>(classes), d.values.end(), v.begin());
    rec.prediction = convert::read_output(net, readout, counts, v);
    return rec;
}

std::vector<snn::raster_population> layer_rows(const convert::converted_snn& net, std::uint64_t rows,
                                               const std::string& prefix) {
    std::vector<snn::raster_population> pops;
    for (const auto& layer : net.layers) {
        const std::uint64_t n = layer.size(), k = (n + rows - 1) / rows;
        pops.push_back({prefix + layer.name + (k > 1 ? " (1 neuron in " + std::to_string(k) + ")" : ""), (n + k - 1) / k,
                        {}, {}});
    }
    return pops;
}

void add_layer_spikes(std::vector<snn::raster_population>& pops, const convert::converted_snn& net,
                      const recorded_image& rec, std::uint64_t rows, double offset, double scale) {
    for (std::size_t l = 0; l < rec.layers.size(); ++l) {
        const std::uint64_t k = (net.layers[l].size() + rows - 1) / rows;
        const auto& layer = rec.layers[l];
        for (std::size_t s = 0; s < layer.node_ids.size(); ++s) {
            if (layer.node_ids[s] % k != 0) continue;
            pops[l].node_ids.push_back(layer.node_ids[s] / k);
            pops[l].times_ms.push_back(offset + layer.times_ms[s] * scale);
        }
    }
}

void write_image_raster(const std::filesystem::path& file, const convert::converted_snn& net,
                        const recorded_image& rec, std::int64_t steps, const std::string& title) {
    // At most 40 rows a layer, so that the output layer's ten neurons, which decide the class,
    // are a visible band rather than 10 rows among thousands.
    constexpr std::uint64_t rows = 40;
    auto pops = layer_rows(net, rows, "");
    add_layer_spikes(pops, net, rec, rows, 0, 1);
    snn::raster_plot_options opt;
    opt.title = title;
    opt.t_start_ms = 0;
    opt.t_stop_ms = static_cast<double>(steps);
    opt.rate_bin_ms = 1;  // one step
    opt.max_points = 60000;
    snn::write_raster_svg(file, pops, opt);
}

}  // namespace volley::pipeline
