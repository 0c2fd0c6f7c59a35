#pragma once
// Evaluation images from a NumPy .npz (see evaluation_data.hpp).

#include <volley/convert/evaluation_data.hpp>

namespace volley::convert::detail {

/// Reads x ((N,C,H,W), (N,H,W,C), or (N,H,W) for one channel; float, or uint8 scaled by 1/255)
/// and the optional y (integer labels, or one-hot rows). A rank-4 x is NHWC when its last axis
/// equals `expected_channels` and its second does not. file_format_error naming the file and
/// the array for anything else.
labelled_images load_npz_images(const std::filesystem::path& file, std::size_t expected_channels);

}  // namespace volley::convert::detail
