#pragma once
// The Keras reader's shared pieces (keras_reader.cpp): the context of one model being read,
// the JSON and weight helpers, add_layer, which translates one Keras layer (keras_layers.cpp),
// and the legacy-file handling (keras_legacy.cpp): which Keras version and backend wrote the
// file, and the Keras 1 layer configs in Keras 2 terms.

#include <volley/convert/cnn_graph.hpp>

#include "io/graph_builder.hpp"
#include "io/h5_read.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace volley::convert::keras {

using detail::hdf5_id;
using nlohmann::json;

/// How a Keras tensor's values are laid out in Keras's memory.
enum class keras_layout { channels_last, channels_first, flat };

/// Which Keras wrote a file and what that means for its weights (keras_legacy.cpp).
struct keras_origin {
    std::string keras_version;  ///< the `keras_version` attribute ("" when absent)
    std::string backend;        ///< the backend that trained the weights ("tensorflow", "theano", ...)
    bool keras1 = false;        ///< Keras 1.x: `_W`/`_b` weights, 'th' kernels (out, in, rows, cols)
    bool theano = false;        ///< kernels are for a true convolution (flipped, Theano padding)
};

struct keras_context {
    detail::graph_builder& b;
    hid_t weights_root;  // model_weights (model.save) or the root (save_weights)
    std::string weights_path;
    std::vector<keras_layout> layouts;  // per graph node
    keras_layout input_layout = keras_layout::channels_last;
    keras_origin origin{};
    const std::string& file() const { return b.file(); }
};

/// The Keras version and backend of a file: the attributes of the weights group, else of the
/// file's root, else the keys of the architecture JSON (`model.to_json()` writes them). No
/// `keras_version` anywhere means Keras 1, as Keras 2's own loader decides. A Keras 1 file
/// records no backend: it is read from the weight names (TensorFlow variables end in ':0',
/// Theano's do not). unsupported_model for a backend this reader does not know.
keras_origin read_keras_origin(hid_t root, hid_t weights_root, const json& model,
                               const std::string& file);

/// A Keras 1 layer (Convolution2D, `nb_filter`, `border_mode`, `dim_ordering`, ...) as the
/// Keras 2 layer that Keras 2's legacy interfaces make of it; the type may change (Merge →
/// Add/Concatenate). unsupported_model for Keras 1 settings Volley cannot express.
std::pair<std::string, json> keras1_layer(const std::string& type, const json& cfg,
                                          const std::string& file, const std::string& name);

std::size_t as_size(const json& v, const std::string& file, const std::string& where);

/// A Keras tuple argument: n or [a, b].
std::pair<std::size_t, std::size_t> pair_of(const json& cfg, const char* key, std::size_t fallback,
                                            const std::string& file, const std::string& layer);

std::string text(const json& cfg, const char* key, const std::string& fallback);

keras_layout data_format(const json& cfg, keras_layout fallback);

/// Reads the weights of `layer`, keyed by their role ("kernel", "bias", "gamma", ...). A Keras 1
/// file's weights take their roles from `keras1_roles` by position, as Keras loads them.
std::map<std::string, detail::float_array> layer_weights(
    const keras_context& k, const std::string& layer,
    const std::vector<std::string>& keras1_roles = {});

const detail::float_array& need(const std::map<std::string, detail::float_array>& w,
                                const std::string& role, const keras_context& k,
                                const std::string& layer);

void expect_shape(const keras_context& k, const std::string& layer, const char* role,
                  const detail::float_array& a, const std::vector<std::size_t>& shape);

/// The activation of a layer: false (linear), true (relu); softmax on the output is dropped.
bool activation(const keras_context& k, const json& cfg, const std::string& layer,
                const std::string& type, bool is_output);

/// Keras 'same' padding: total = max((ceil(in/s) − 1)·s + (k − 1)·d + 1 − in, 0), the extra
/// pixel at the end (bottom/right).
std::pair<std::size_t, std::size_t> same_padding(std::size_t in, std::size_t k, std::size_t s,
                                                 std::size_t d);

/// Per-image CHW index of Keras memory position `m` of a tensor with layout `l` and shape `s`.
std::vector<std::uint32_t> keras_order(keras_layout l, const shape4& s);

shape4 node_shape(const keras_context& k, std::size_t node);

keras_layout layout_of(const keras_context& k, std::size_t node);

/// The channel axis (in CHW terms) named by a Keras `axis` for a tensor of layout `l`; false if
/// it is not the channel axis.
bool is_channel_axis(long axis, keras_layout l);

/// Adds one Keras layer to the graph.
void add_layer(keras_context& k, const std::string& type, const json& cfg, const std::string& name,
               const std::vector<std::size_t>& inputs, bool is_output);

}  // namespace volley::convert::keras
