#pragma once
// What the Keras and Volley readers share: a cnn_graph under construction, addressed by the
// layer names of the file. Layers that vanish (Dropout, BatchNorm folded into its Conv2D) are
// aliases of their input; finish() merges stand-alone ReLUs into the layer before them, folds
// Flatten permutations into the Dense layers after them, and validates the graph.

#include <volley/convert/cnn_graph.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace volley::convert::detail {

/// The model input, as a "node index".
inline constexpr std::size_t model_input = static_cast<std::size_t>(-1);

class graph_builder {
  public:
    graph_builder(std::string file, std::string format);

    cnn_graph& graph() noexcept { return graph_; }
    const std::string& file() const noexcept { return graph_.source_file; }

    /// Declares `name` to be the model input (Functional InputLayer).
    void name_input(const std::string& name);
    /// The node (or model_input) that `name` refers to; file_format_error if unknown, and
    /// unsupported_model if it is a layer whose output vanished into a folded BatchNorm.
    std::size_t resolve(const std::string& name, const std::string& reader) const;
    /// Appends `node` reading `inputs` and registers its name; returns its index.
    std::size_t add(layer_node node, const std::vector<std::size_t>& inputs);
    /// Makes `name` refer to `target` (a removed layer passes its input through).
    void alias(const std::string& name, std::size_t target);
    /// Folds a BatchNorm called `name` into node `target` (a Conv2D or Dense with no ReLU and no
    /// other reader); `name` then refers to `target`, and `target`'s own name may no longer be
    /// read.
    void fold_batch_norm(const std::string& name, const std::string& type, std::size_t target,
                         const std::vector<float>& gamma, const std::vector<float>& beta,
                         const std::vector<float>& mean, const std::vector<float>& variance,
                         double epsilon);
    /// Merges ReLUs, folds Flatten permutations into Dense layers, validates, and returns the
    /// graph.
    cnn_graph finish();

  private:
    cnn_graph graph_;
    std::map<std::string, std::size_t> names_;
    std::map<std::string, std::string> folded_;  // pre-BatchNorm layer name -> BatchNorm name
    std::vector<std::size_t> readers_;           // readers per node so far
};

/// unsupported_model naming the file, the layer, its type, and the closest supported alternative.
[[noreturn]] void throw_unsupported(const std::string& file, const std::string& layer,
                                    const std::string& type, const std::string& detail = "");

/// The closest supported alternative to a layer or activation type, as advice ("" if none).
std::string suggest_alternative(const std::string& type);

}  // namespace volley::convert::detail
