// The layer chain and the named architectures.

#include <volley/convert/batch_norm.hpp>
#include <volley/convert/conv2d.hpp>
#include <volley/convert/dense.hpp>
#include <volley/convert/elementwise_layers.hpp>
#include <volley/convert/pooling.hpp>
#include <volley/convert/sequential_model.hpp>
#include <volley/error.hpp>

#include <string>
#include <utility>

namespace volley::convert {

namespace {

/// The stem of Keras's automatic layer names, so that Keras files get familiar names.
std::string keras_name_stem(const std::string& kind) {
    if (kind == "maxpool2d") return "max_pooling2d";
    if (kind == "avgpool2d") return "average_pooling2d";
    if (kind == "batch_norm") return "batch_normalization";
    if (kind == "relu") return "re_lu";
    return kind;
}

}  // namespace

template <class T>
layer<T>& sequential_model<T>::add(layer_ptr<T> l) {
    if (l->name().empty()) {
        std::size_t same = 0;
        for (const auto& other : layers_) same += other->kind() == l->kind();
        const std::string stem = keras_name_stem(l->kind());
        l->set_name(same == 0 ? stem : stem + "_" + std::to_string(same));
    }
    for (const auto& other : layers_)
        if (other->name() == l->name())
            throw invalid_parameter("model", "layer name", l->name(), "is used twice");
    const shape4 in = shapes_.empty() ? input_ : shapes_.back();
    shapes_.push_back(l->output_shape(in));
    layers_.push_back(std::move(l));
    return *layers_.back();
}

template <class T>
std::size_t sequential_model<T>::parameter_count() const {
    std::size_t count = 0;
    for (const auto& l : layers_)
        for (const auto& p : std::as_const(*l).parameters()) count += p.values.size();
    return count;
}

template <class T>
tensor<T> sequential_model<T>::predict(const tensor<T>& x) const {
    if (x.shape.with_batch(1) != input_)
        throw invalid_parameter("model", "input shape", to_string(x.shape),
                                "expected images of shape " + to_string(input_));
    tensor<T> a = x, b;
    layer_scratch<T> scratch;
    const pass_context ctx{};
    for (const auto& l : layers_) {
        l->forward(a, b, scratch, ctx);
        std::swap(a, b);
    }
    return a;
}

template class sequential_model<float>;
template class sequential_model<double>;

std::vector<std::string> model_names() { return {"small", "small_bn", "reference", "tiny"}; }

std::string model_name_list() {
    const auto names = model_names();
    std::string text;
    for (std::size_t k = 0; k < names.size(); ++k)
        text += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
    return text;
}

sequential_model<float> make_model(std::string_view name, std::uint64_t seed) {
    using F = float;
    sequential_model<F> m(shape4{1, 1, 28, 28});
    std::uint64_t k = 0;
    const auto next_seed = [&] { return seed * 1000003ULL + ++k; };
    const auto conv = [&](std::size_t in, std::size_t out, std::size_t stride, std::size_t pad) {
        m.add(std::make_unique<conv2d<F>>(conv2d_config{in, out, 3, 3, stride, pad}, next_seed()));
    };
    const auto fc = [&](std::size_t in, std::size_t out) {
        m.add(std::make_unique<dense<F>>(in, out, next_seed()));
    };
    const auto add_relu = [&] { m.add(std::make_unique<relu<F>>()); };
    const auto add_bn = [&](std::size_t channels) { m.add(std::make_unique<batch_norm<F>>(channels)); };
    const auto pool = [&](pool_kind kind) { m.add(std::make_unique<pool2d<F>>(kind, 2, 2)); };
    if (name == "small") {
        conv(1, 16, 1, 1), add_relu(), pool(pool_kind::average);
        conv(16, 32, 1, 1), add_relu(), pool(pool_kind::average);
        m.add(std::make_unique<flatten<F>>());
        fc(32 * 7 * 7, 10);
    } else if (name == "small_bn") {
        conv(1, 16, 1, 1), add_bn(16), add_relu(), pool(pool_kind::average);
        conv(16, 32, 1, 1), add_bn(32), add_relu(), pool(pool_kind::average);
        m.add(std::make_unique<flatten<F>>());
        fc(32 * 7 * 7, 10);
    } else if (name == "reference") {
        conv(1, 32, 1, 0), add_bn(32), add_relu(), pool(pool_kind::max);
        conv(32, 64, 1, 0), add_bn(64), add_relu(), pool(pool_kind::max);
        m.add(std::make_unique<flatten<F>>());
        fc(64 * 5 * 5, 128), add_relu();
        m.add(std::make_unique<dropout<F>>(0.25));
        fc(128, 10);
    } else if (name == "tiny") {
        conv(1, 4, 2, 0), add_relu();
        m.add(std::make_unique<flatten<F>>());
        fc(4 * 13 * 13, 10);
    } else {
        throw invalid_parameter("make_model", "model", std::string(name), "unknown; expected " + model_name_list());
    }
    return m;
}

}  // namespace volley::convert
