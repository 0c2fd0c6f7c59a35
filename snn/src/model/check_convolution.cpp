// Validation of a convolution connector (see check_convolution.hpp).

#include "model/check_convolution.hpp"

#include <volley/error.hpp>

#include <cmath>

#include "model/format_number.hpp"

namespace volley::snn::detail {

void check_convolution(const convolution& c, const population& source, const population& target,
                       const synapse_spec& synapse, const std::string& object) {
    const std::pair<const char*, std::uint32_t> positive[] = {
        {"in_channels", c.in_channels},   {"in_height", c.in_height},       {"in_width", c.in_width},
        {"out_channels", c.out_channels}, {"kernel_height", c.kernel_height}, {"kernel_width", c.kernel_width},
        {"stride_h", c.stride_h},         {"stride_w", c.stride_w},         {"dilation_h", c.dilation_h},
        {"dilation_w", c.dilation_w},     {"groups", c.groups}};
    for (const auto& [name, v] : positive)
        if (v == 0) throw invalid_parameter(object, std::string("convolution ") + name, "0", "must be >= 1");
    if (c.in_channels % c.groups != 0 || c.out_channels % c.groups != 0)
        throw invalid_parameter(object, "convolution groups", std::to_string(c.groups),
                                "must divide in_channels (" + std::to_string(c.in_channels) + ") and out_channels (" +
                                    std::to_string(c.out_channels) + ")");
    const std::uint64_t expected = std::uint64_t{c.out_channels} * (c.in_channels / c.groups) * c.kernel_height *
                                   c.kernel_width;
    if (c.kernel.size() != expected)
        throw invalid_parameter(object, "convolution kernel", "a list of " + std::to_string(c.kernel.size()) + " values",
                                "expected out_channels x in_channels/groups x kernel_height x kernel_width = " +
                                    std::to_string(expected) + " (OIHW)");
    for (std::size_t i = 0; i < c.kernel.size(); ++i)
        if (!std::isfinite(c.kernel[i]))
            throw invalid_parameter(object, "convolution kernel[" + std::to_string(i) + "]", format_number(c.kernel[i]),
                                    "must be finite");
    if (c.out_height() == 0 || c.out_width() == 0)
        throw invalid_parameter(object, "convolution kernel",
                                std::to_string(c.kernel_height) + "x" + std::to_string(c.kernel_width) + " dilated by " +
                                    std::to_string(c.dilation_h) + "x" + std::to_string(c.dilation_w),
                                "does not fit the padded " + std::to_string(c.in_height) + "x" +
                                    std::to_string(c.in_width) + " input");
    const std::uint64_t n_in = std::uint64_t{c.in_channels} * c.in_height * c.in_width;
    const std::uint64_t n_out = std::uint64_t{c.out_channels} * c.out_height() * c.out_width();
    if (source.size != n_in)
        throw invalid_parameter(object, "source size", std::to_string(source.size),
                                "the convolution's input map " + std::to_string(c.in_channels) + "x" +
                                    std::to_string(c.in_height) + "x" + std::to_string(c.in_width) + " has " +
                                    std::to_string(n_in) + " neurons");
    if (target.size != n_out)
        throw invalid_parameter(object, "target size", std::to_string(target.size),
                                "the convolution's output map " + std::to_string(c.out_channels) + "x" +
                                    std::to_string(c.out_height()) + "x" + std::to_string(c.out_width()) + " has " +
                                    std::to_string(n_out) + " neurons");
    const auto* w = std::get_if<double>(&synapse.weight);
    if (!w || *w != 1.0)
        throw invalid_parameter(object, "weight", w ? format_number(*w) : describe(synapse.weight),
                                "a convolution's weight must be the constant 1 (the kernel carries the weights)");
    if (!std::holds_alternative<double>(synapse.delay_ms))
        throw invalid_parameter(object, "delay_ms", describe(synapse.delay_ms),
                                "a convolution's delay must be a constant (one shared kernel)");
}

}  // namespace volley::snn::detail
