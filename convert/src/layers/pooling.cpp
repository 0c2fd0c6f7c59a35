// Average and max pooling with "valid" padding; max pooling remembers each window's arg-max.

#include <volley/convert/pooling.hpp>
#include <volley/error.hpp>

#include <algorithm>

namespace volley::convert {

template <class T>
pool2d<T>::pool2d(pool_kind kind, std::size_t pool_size, std::size_t stride)
    : kind_(kind), size_(pool_size), stride_(stride) {
    if (size_ == 0) throw invalid_parameter("pool2d", "pool_size", "0", "must be >= 1");
    if (stride_ == 0) throw invalid_parameter("pool2d", "stride", "0", "must be >= 1");
}

template <class T>
shape4 pool2d<T>::output_shape(const shape4& in) const {
    if (in.h < size_ || in.w < size_)
        throw invalid_parameter(kind() + " '" + this->name() + "'", "input shape", to_string(in),
                                "smaller than the pool size " + std::to_string(size_));
    return {in.n, in.c, (in.h - size_) / stride_ + 1, (in.w - size_) / stride_ + 1};
}

template <class T>
void pool2d<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                        const pass_context&) const {
    y.resize(output_shape(x.shape));
    const std::size_t planes = x.shape.n * x.shape.c, H = x.shape.h, W = x.shape.w;
    const std::size_t oh = y.shape.h, ow = y.shape.w;
    const T inv_area = T(1) / static_cast<T>(size_ * size_);
    if (kind_ == pool_kind::max) scratch.indices.resize(y.values.size());
    for (std::size_t p = 0; p < planes; ++p) {
        const T* in = x.values.data() + p * H * W;
        T* out = y.values.data() + p * oh * ow;
        for (std::size_t oy = 0; oy < oh; ++oy)
            for (std::size_t ox = 0; ox < ow; ++ox) {
                const std::size_t y0 = oy * stride_, x0 = ox * stride_;
                if (kind_ == pool_kind::max) {
                    std::size_t best = y0 * W + x0;
                    for (std::size_t ky = 0; ky < size_; ++ky)
                        for (std::size_t kx = 0; kx < size_; ++kx) {
                            const std::size_t at = (y0 + ky) * W + x0 + kx;
                            if (in[at] > in[best]) best = at;
                        }
                    out[oy * ow + ox] = in[best];
                    scratch.indices[p * oh * ow + oy * ow + ox] = static_cast<std::uint32_t>(best);
                } else {
                    T sum = 0;
                    for (std::size_t ky = 0; ky < size_; ++ky)
                        for (std::size_t kx = 0; kx < size_; ++kx) sum += in[(y0 + ky) * W + x0 + kx];
                    out[oy * ow + ox] = sum * inv_area;
                }
            }
    }
}

template <class T>
void pool2d<T>::backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy,
                         tensor<T>* dx, std::span<std::vector<T>>, layer_scratch<T>& scratch,
                         const pass_context&) const {
    if (!dx) return;
    dx->resize(x.shape);
    std::fill(dx->values.begin(), dx->values.end(), T(0));
    const std::size_t planes = x.shape.n * x.shape.c, H = x.shape.h, W = x.shape.w;
    const std::size_t oh = y.shape.h, ow = y.shape.w;
    const T inv_area = T(1) / static_cast<T>(size_ * size_);
    for (std::size_t p = 0; p < planes; ++p) {
        T* d_in = dx->values.data() + p * H * W;
        const T* d_out = dy.values.data() + p * oh * ow;
        for (std::size_t oy = 0; oy < oh; ++oy)
            for (std::size_t ox = 0; ox < ow; ++ox) {
                const T g = d_out[oy * ow + ox];
                if (kind_ == pool_kind::max) {
                    d_in[scratch.indices[p * oh * ow + oy * ow + ox]] += g;
                    continue;
                }
                const std::size_t y0 = oy * stride_, x0 = ox * stride_;
                for (std::size_t ky = 0; ky < size_; ++ky)
                    for (std::size_t kx = 0; kx < size_; ++kx)
                        d_in[(y0 + ky) * W + x0 + kx] += g * inv_area;
            }
    }
}

template class pool2d<float>;
template class pool2d<double>;

}  // namespace volley::convert
