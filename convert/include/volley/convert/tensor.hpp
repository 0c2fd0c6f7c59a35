#pragma once
// The dense 4-D array that flows between CNN layers, in NCHW order (batch, channels, height,
// width). A dense layer's output is (n, features, 1, 1); flattening is free in this layout.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace volley::convert {

/// The extent of an NCHW tensor: n images, c channels, h rows, w columns.
struct shape4 {
    std::size_t n = 0, c = 0, h = 0, w = 0;

    /// Values per image (c·h·w).
    std::size_t per_image() const noexcept { return c * h * w; }
    /// Values in the whole tensor (n·c·h·w).
    std::size_t size() const noexcept { return n * per_image(); }
    /// The same image shape with another batch size.
    shape4 with_batch(std::size_t batch) const noexcept { return {batch, c, h, w}; }
    friend bool operator==(const shape4&, const shape4&) = default;
};

/// "(n, c, h, w)", for error messages.
inline std::string to_string(const shape4& s) {
    std::string out = "(";
    out.append(std::to_string(s.n)).append(", ").append(std::to_string(s.c));
    out.append(", ").append(std::to_string(s.h)).append(", ").append(std::to_string(s.w));
    return out.append(")");
}

/// An NCHW tensor owning its values; element (i, c, y, x) is at ((i·C + c)·H + y)·W + x.
template <class T>
struct tensor {
    shape4 shape;
    std::vector<T> values;

    tensor() = default;
    explicit tensor(const shape4& s, T fill = T(0)) : shape(s), values(s.size(), fill) {}

    /// Reshapes to `s`, reusing storage; the values are unspecified afterwards.
    void resize(const shape4& s) {
        shape = s;
        values.resize(s.size());
    }
    /// The first value of image `i`.
    T* image(std::size_t i) noexcept { return values.data() + i * shape.per_image(); }
    const T* image(std::size_t i) const noexcept { return values.data() + i * shape.per_image(); }
    T& at(std::size_t i, std::size_t c, std::size_t y, std::size_t x) noexcept {
        return values[((i * shape.c + c) * shape.h + y) * shape.w + x];
    }
    const T& at(std::size_t i, std::size_t c, std::size_t y, std::size_t x) const noexcept {
        return values[((i * shape.c + c) * shape.h + y) * shape.w + x];
    }
};

}  // namespace volley::convert
