// The pipeline's hardware stage (see hardware_stage.hpp).

#include <volley/pipeline/hardware_stage.hpp>

#include <volley/convert/snn_quantization.hpp>
#include <volley/error.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <algorithm>
#include <cmath>

namespace volley::pipeline {

hardware_stage_result run_hardware_stage(const conversion_stage_result& model, const evaluation_stage_result& ev,
                                         const convert::image_dataset& test, const hardware_stage_options& o) {
    hardware_stage_result r;
    if (o.timesteps <= 0) {
        r.note = "skipped (hardware timesteps 0)";
        return r;
    }
    const std::size_t n = o.images == 0 ? ev.images : std::min(o.images, ev.images);
    const std::span<const std::int32_t> labels = std::span<const std::int32_t>(ev.labels).first(n);
    std::vector<convert::head_network> heads;
    try {
        const auto quant = convert::quantize_snn(
            model.net, {.bits = o.bits, .head_max_threshold = convert::head_threshold_limit(convert::head_hardware::danna2)});
        for (const auto h : {convert::head_hardware::danna2, convert::head_hardware::risp}) {
            heads.push_back(convert::export_head(quant, h));
            if (!o.out_dir.empty())
                hw::save_tennlab_network(heads.back().network,
                                         (o.out_dir / ("head_" + convert::to_string(h) + ".json")).string());
        }
        r.checks = convert::check_heads_on_hardware(quant, heads,
                                                    std::span<const float>(test.pixels).first(n * test.image_size()),
                                                    {.timesteps = o.timesteps, .threads = o.threads});
        r.head_layer = model.net.layers[quant.head_first].name;
        r.head_inputs = heads.front().inputs;
        r.bits = quant.bits;
    } catch (const volley::error& e) {
        r.note = std::string("not run: ") + e.what();
        r.checks.clear();
        return r;
    }
    r.timesteps = o.timesteps;
    r.images = n;
    r.integer_accuracy = fraction_equal(r.checks.front().engine_predictions, labels);
    r.float_accuracy = std::nan("");
    for (std::size_t c = 0; c < ev.snn.checkpoints.size(); ++c)
        if (ev.snn.checkpoints[c].timesteps == o.timesteps)
            r.float_accuracy = fraction_equal(std::span<const std::int32_t>(ev.snn.predictions[c]).first(n), labels);
    for (std::size_t h = 0; h < r.checks.size(); ++h) {
        const auto& c = r.checks[h];
        const double ni = static_cast<double>(std::max<std::size_t>(c.images, 1));
        hardware_result d;
        d.processor = convert::to_string(heads[h].hardware);
        d.head_file = o.out_dir.empty() ? "" : (o.out_dir / ("head_" + d.processor + ".json")).string();
        d.agreement = static_cast<double>(c.same_prediction) / ni;
        d.same_counts = static_cast<double>(c.same_counts) / ni;
        d.same_charges = static_cast<double>(c.same_charges) / ni;
        d.charge_beyond_range = static_cast<double>(c.charge_beyond_range) / ni;
        d.neurons = c.cost.neurons;
        d.synapses = c.cost.synapses;
        d.cycles_per_image = static_cast<double>(c.cost.cycles) / ni;
        d.time_s_per_image = c.cost.time_s() / ni;
        d.energy_j_per_image = c.cost.energy_j() / ni;
        for (const auto& [kind, count] : c.cost.events)
            if (count != 0) d.events_per_image.emplace_back(kind, static_cast<double>(count) / ni);
        r.processors.push_back(std::move(d));
    }
    return r;
}

}  // namespace volley::pipeline
