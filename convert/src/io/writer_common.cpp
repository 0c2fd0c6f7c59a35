// The reference batch and provenance shared by both model writers.

#include "io/writer_common.hpp"

#include <volley/convert/keras_layout.hpp>

namespace volley::convert {

reference_batch make_reference_batch(const sequential_model<float>& model,
                                     const image_dataset& data, std::size_t n) {
    n = std::min(n, data.count());
    reference_batch r;
    r.x = tensor<float>(model.input_shape().with_batch(n));
    std::copy(data.pixels.begin(),
              data.pixels.begin() + static_cast<std::ptrdiff_t>(n * data.image_size()),
              r.x.values.begin());
    r.y.assign(data.labels.begin(), data.labels.begin() + static_cast<std::ptrdiff_t>(n));
    r.logits = model.predict(r.x);
    return r;
}

namespace detail {

void write_reference_group(hid_t root, const reference_batch& reference, bool channels_last,
                           const std::string& file) {
    auto group = snn::detail::create_group(root, "reference", file);
    const auto& s = reference.x.shape;
    if (channels_last)
        write_float_dataset(group.get(), "x", {s.n, s.h, s.w, s.c},
                            nchw_to_nhwc(reference.x.values, s.n, s.c, s.h, s.w), file);
    else
        write_float_dataset(group.get(), "x", {s.n, s.c, s.h, s.w}, reference.x.values, file);
    write_int_dataset(group.get(), "y", {reference.y.size()},
                      std::vector<std::int32_t>(reference.y.begin(), reference.y.end()), file);
    write_float_dataset(group.get(), "logits",
                        {reference.logits.shape.n, reference.logits.shape.per_image()},
                        reference.logits.values, file);
    snn::detail::write_string_attribute(
        group.get(), "layout", channels_last ? "x NHWC, logits (n, classes)" : "x NCHW, logits (n, classes)",
        file);
}

void write_provenance(hid_t object, const model_provenance& p, const std::string& file) {
    snn::detail::write_string_attribute(object, "dataset", p.dataset, file);
    snn::detail::write_string_attribute(object, "training", p.training, file);
    write_double_attribute(object, "cnn_test_acc", p.test_accuracy, file);
    write_int_attribute(object, "epochs", static_cast<std::int64_t>(p.epochs), file);
    write_double_attribute(object, "train_time_s", p.train_time_s, file);
}

}  // namespace detail

}  // namespace volley::convert
