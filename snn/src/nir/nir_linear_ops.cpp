// Linear NIR primitives as scatter operators (see nir_linear_ops.hpp). PyTorch semantics:
// cross-correlation with zero padding, output index o reads input o·stride − pad + k·dilation.
// So an input element at i reaches the outputs o = (i + pad − k·dilation) / stride that divide
// exactly and fall in range.

#include "nir/nir_linear_ops.hpp"

#include <volley/error.hpp>

#include <cmath>
#include <functional>
#include <numeric>

#include "nir/nir_primitives.hpp"

namespace volley::snn::detail {

namespace {

const nir_location nowhere{"<graph>", ""};

struct window {
    long long kernel = 1, stride = 1, pad = 0, dilation = 1, out = 1;
};

/// The windows of a Conv or pool node along its spatial dims (1 or 2), with 'same'/'valid'.
std::vector<window> windows(const nir_node& node, std::size_t dims, const std::vector<long long>& kernel) {
    const bool pool = node.type == "SumPool2d" || node.type == "AvgPool2d";
    const auto stride = pool && !node.param("stride") ? kernel : nir_int_tuple(node, "stride", dims, 1, nowhere);
    const auto dilation = pool ? std::vector<long long>(dims, 1) : nir_int_tuple(node, "dilation", dims, 1, nowhere);
    const nir_array* pad = node.param("padding");
    std::vector<window> out(dims);
    for (std::size_t d = 0; d < dims; ++d) {
        out[d].kernel = kernel[d];
        out[d].stride = stride[d];
        out[d].dilation = dilation[d];
        if (pad && pad->is_text())
            out[d].pad = pad->text == "same" ? dilation[d] * (kernel[d] - 1) / 2 : 0;
        else
            out[d].pad = nir_int_tuple(node, "padding", dims, 0, nowhere)[d];
        out[d].out = static_cast<long long>(node.output_shape[node.output_shape.size() - dims + d]);
    }
    return out;
}

/// Calls f(o, k) for every output position o that input position i reaches through kernel tap k.
template <class F>
void taps(const window& w, long long i, F&& f) {
    for (long long k = 0; k < w.kernel; ++k) {
        const long long num = i + w.pad - k * w.dilation;
        if (num < 0 || num % w.stride != 0) continue;
        const long long o = num / w.stride;
        if (o < w.out) f(o, k);
    }
}

void conv(const nir_node& node, const std::vector<double>& x, std::vector<double>& y) {
    const auto& wt = node.params.at("weight");
    const std::size_t dims = wt.shape.size() - 2;
    const auto& in = node.input_shape;
    const long long cout = static_cast<long long>(wt.shape[0]), cin_g = static_cast<long long>(wt.shape[1]);
    const long long groups = nir_int_tuple(node, "groups", 1, 1, nowhere)[0];
    const long long cout_g = cout / groups;
    const long long kh = dims == 2 ? static_cast<long long>(wt.shape[2]) : 1, kw = static_cast<long long>(wt.shape[dims + 1]);
    const long long ih = dims == 2 ? static_cast<long long>(in[1]) : 1, iw = static_cast<long long>(in[dims]);
    std::vector<long long> kernel;
    for (std::size_t d = 0; d < dims; ++d) kernel.push_back(static_cast<long long>(wt.shape[2 + d]));
    const auto win = windows(node, dims, kernel);
    const window wy = dims == 2 ? win[0] : window{}, wx = win[dims - 1];
    const long long oh = wy.out, ow = wx.out;
    for (std::size_t f = 0; f < x.size(); ++f) {
        if (x[f] == 0) continue;
        const long long c = static_cast<long long>(f) / (ih * iw), iy = static_cast<long long>(f) / iw % ih,
                        ix = static_cast<long long>(f) % iw;
        const long long g = c / cin_g, cl = c % cin_g;
        taps(wy, iy, [&](long long oy, long long ky) {
            taps(wx, ix, [&](long long ox, long long kx) {
                for (long long oc = g * cout_g; oc < (g + 1) * cout_g; ++oc)
                    y[static_cast<std::size_t>((oc * oh + oy) * ow + ox)] +=
                        wt.values[static_cast<std::size_t>(((oc * cin_g + cl) * kh + ky) * kw + kx)] * x[f];
            });
        });
    }
}

void pool(const nir_node& node, const std::vector<double>& x, std::vector<double>& y) {
    const auto kernel = nir_int_tuple(node, "kernel_size", 2, 1, nowhere);
    const auto win = windows(node, 2, kernel);
    const auto& in = node.input_shape;
    const long long ih = static_cast<long long>(in[1]), iw = static_cast<long long>(in[2]);
    const double scale = node.type == "AvgPool2d" ? 1.0 / static_cast<double>(kernel[0] * kernel[1]) : 1.0;
    for (std::size_t f = 0; f < x.size(); ++f) {
        if (x[f] == 0) continue;
        const long long c = static_cast<long long>(f) / (ih * iw), iy = static_cast<long long>(f) / iw % ih,
                        ix = static_cast<long long>(f) % iw;
        taps(win[0], iy, [&](long long oy, long long) {
            taps(win[1], ix, [&](long long ox, long long) {
                y[static_cast<std::size_t>((c * win[0].out + oy) * win[1].out + ox)] += scale * x[f];
            });
        });
    }
}

}  // namespace

std::size_t nir_element_count(const std::vector<std::size_t>& shape) {
    return std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
}

bool is_nir_linear(const std::string& t) {
    return t == "Affine" || t == "Linear" || t == "Scale" || t == "Conv1d" || t == "Conv2d" || t == "SumPool2d" ||
           t == "AvgPool2d" || t == "Flatten" || t == "Delay";
}

void apply_nir_linear(const nir_node& node, const std::vector<double>& x, std::vector<double>& y) {
    const auto& t = node.type;
    if (t == "Affine" || t == "Linear") {
        const auto& w = node.params.at("weight");
        const std::size_t n_out = w.shape[0], n_in = w.shape[1];
        for (std::size_t f = 0; f < x.size(); ++f) {
            if (x[f] == 0) continue;
            const std::size_t lead = f / n_in, j = f % n_in;
            for (std::size_t i = 0; i < n_out; ++i) y[lead * n_out + i] += w.values[i * n_in + j] * x[f];
        }
    } else if (t == "Scale") {
        const auto& s = node.params.at("scale").values;
        for (std::size_t f = 0; f < x.size(); ++f) y[f] += s[s.size() == 1 ? 0 : f] * x[f];
    } else if (t == "Conv1d" || t == "Conv2d") {
        conv(node, x, y);
    } else if (t == "SumPool2d" || t == "AvgPool2d") {
        pool(node, x, y);
    } else if (t == "Flatten" || t == "Delay") {
        for (std::size_t f = 0; f < x.size(); ++f) y[f] += x[f];
    } else {
        throw internal_error("apply_nir_linear: " + t + " is not linear");
    }
}

std::vector<double> nir_linear_bias(const nir_node& node) {
    const nir_array* b = node.param("bias");
    if (b == nullptr || !(node.type == "Affine" || node.type == "Conv1d" || node.type == "Conv2d")) return {};
    const std::size_t n = nir_element_count(node.output_shape);
    std::vector<double> out(n);
    if (node.type == "Affine") {
        const std::size_t n_out = node.output_shape.back();
        for (std::size_t f = 0; f < n; ++f) out[f] = b->values[b->size() == 1 ? 0 : f % n_out];
    } else {
        const std::size_t per_channel = n / node.output_shape[0];
        for (std::size_t f = 0; f < n; ++f) out[f] = b->values[b->size() == 1 ? 0 : f / per_channel];
    }
    bool any = false;
    for (double v : out) any |= v != 0;
    return any ? out : std::vector<double>{};
}

}  // namespace volley::snn::detail
