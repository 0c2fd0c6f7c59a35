// The Volley HDF5 model layout: PyTorch weight layouts, one group per layer, ReLUs folded into
// the Conv2D or Dense before them (as in tests/data/convert/fmnist_small_torch.h5).

#include <volley/convert/batch_norm.hpp>
#include <volley/convert/conv2d.hpp>
#include <volley/convert/dense.hpp>
#include <volley/convert/elementwise_layers.hpp>
#include <volley/convert/model_writers.hpp>
#include <volley/convert/pooling.hpp>
#include <volley/error.hpp>
#include <volley/snn/hdf5_image.hpp>

#include "io/writer_common.hpp"

namespace volley::convert {

namespace {

using snn::detail::write_string_attribute;

void write_layer(hid_t layers, const sequential_model<float>& model, std::size_t i,
                 const std::string& file) {
    const auto& l = model.at(i);
    auto g = snn::detail::create_group(layers, l.name(), file);
    const auto params = l.parameters();
    const std::string activation = detail::has_folded_relu(model, i) ? "relu" : "linear";
    const auto kind = l.kind();
    write_string_attribute(g.get(), "type", kind, file);
    if (const auto* c = dynamic_cast<const conv2d<float>*>(&l)) {
        const auto& cfg = c->config();
        write_string_attribute(g.get(), "activation", activation, file);
        detail::write_int_attribute(g.get(), "in_channels", static_cast<std::int64_t>(cfg.in_channels), file);
        detail::write_int_attribute(g.get(), "out_channels", static_cast<std::int64_t>(cfg.out_channels), file);
        detail::write_int_attribute(g.get(), "kernel", static_cast<std::int64_t>(cfg.kernel_h), file);
        detail::write_int_array_attribute(g.get(), "kernel_hw",
                                          {static_cast<std::int32_t>(cfg.kernel_h), static_cast<std::int32_t>(cfg.kernel_w)}, file);
        detail::write_int_attribute(g.get(), "stride", static_cast<std::int64_t>(cfg.stride), file);
        detail::write_int_attribute(g.get(), "padding", static_cast<std::int64_t>(cfg.padding), file);
        detail::write_float_dataset(g.get(), "weight",
                                    {cfg.out_channels, cfg.in_channels, cfg.kernel_h, cfg.kernel_w},
                                    params[0].values, file);
        detail::write_float_dataset(g.get(), "bias", {cfg.out_channels}, params[1].values, file);
    } else if (const auto* d = dynamic_cast<const dense<float>*>(&l)) {
        write_string_attribute(g.get(), "activation", activation, file);
        detail::write_int_attribute(g.get(), "in_features", static_cast<std::int64_t>(d->in_features()), file);
        detail::write_int_attribute(g.get(), "out_features", static_cast<std::int64_t>(d->out_features()), file);
        detail::write_float_dataset(g.get(), "weight", {d->out_features(), d->in_features()},
                                    params[0].values, file);
        detail::write_float_dataset(g.get(), "bias", {d->out_features()}, params[1].values, file);
    } else if (const auto* p = dynamic_cast<const pool2d<float>*>(&l)) {
        detail::write_int_attribute(g.get(), "kernel", static_cast<std::int64_t>(p->pool_size()), file);
        detail::write_int_attribute(g.get(), "stride", static_cast<std::int64_t>(p->stride()), file);
    } else if (kind == "flatten") {
        write_string_attribute(g.get(), "order", "CHW", file);
    } else if (const auto* dr = dynamic_cast<const dropout<float>*>(&l)) {
        detail::write_double_attribute(g.get(), "rate", dr->rate(), file);
    } else if (const auto* bn = dynamic_cast<const batch_norm<float>*>(&l)) {
        const hsize_t c = bn->channels();
        detail::write_double_attribute(g.get(), "epsilon", bn->epsilon(), file);
        detail::write_float_dataset(g.get(), "gamma", {c}, params[0].values, file);
        detail::write_float_dataset(g.get(), "beta", {c}, params[1].values, file);
        detail::write_float_dataset(g.get(), "running_mean", {c}, bn->moving_mean(), file);
        detail::write_float_dataset(g.get(), "running_var", {c}, bn->moving_variance(), file);
    } else if (kind != "relu") {
        throw invalid_parameter("Volley HDF5 writer", "layer '" + l.name() + "'", kind,
                                "is not part of the Volley layout");
    }
}

}  // namespace

void write_volley_h5(const sequential_model<float>& model, const std::filesystem::path& path,
                     const reference_batch& reference, const model_provenance& provenance) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::create_hdf5_image(file);  // written whole at the end (hdf5_image.hpp)
    write_string_attribute(h5.get(), "format", "volley-cnn-v1", file);
    write_string_attribute(h5.get(), "source", "volley train", file);
    write_string_attribute(h5.get(), "tensor_layout",
                           "NCHW activations; conv weight OIHW; dense weight (out,in); flatten order CHW",
                           file);
    const shape4 in = model.input_shape();
    detail::write_int_array_attribute(h5.get(), "input_shape_chw",
                                      {static_cast<std::int32_t>(in.c), static_cast<std::int32_t>(in.h),
                                       static_cast<std::int32_t>(in.w)},
                                      file);
    detail::write_provenance(h5.get(), provenance, file);
    auto layers = snn::detail::create_group(h5.get(), "layers", file);
    std::vector<std::string> order;
    for (std::size_t i = 0; i < model.size(); ++i) {
        if (detail::relu_is_folded(model, i)) continue;
        write_layer(layers.get(), model, i, file);
        order.push_back(model.at(i).name());
    }
    detail::write_string_array_attribute(h5.get(), "layer_order", order, file);
    detail::write_reference_group(h5.get(), reference, false, file);
    snn::detail::write_hdf5_image(h5.get(), path);
}

}  // namespace volley::convert
