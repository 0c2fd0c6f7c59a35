// The lowering's model families (see model_family.hpp). Exhaustive at compile time: a model
// added to neuron_model without a family here does not build.

#include "lowering/model_family.hpp"

#include <type_traits>

namespace volley::snn::detail {

namespace {
template <class M, class... Of>
inline constexpr bool one_of = (std::is_same_v<M, Of> || ...);
template <class>
inline constexpr bool no_family = false;
}  // namespace

model_family family_of(const neuron_model& m) {
    return std::visit(
        [](const auto& model) {
            using M = std::decay_t<decltype(model)>;
            if constexpr (one_of<M, lif_delta, lif_exp, lif_alpha>) return model_family::exact_linear;
            else if constexpr (one_of<M, lif_cond_exp, lif_cond_alpha, izhikevich, adex, adex_alpha, hh>) return model_family::ode;
            else if constexpr (one_of<M, discrete_neuron>) return model_family::discrete;
            else if constexpr (one_of<M, poisson_source, spike_source>) return model_family::spike_source;
            else if constexpr (one_of<M, analog_source>) return model_family::analog_source;
            else static_assert(no_family<M>, "every neuron model needs a family (model_family.hpp)");
        },
        m);
}

}  // namespace volley::snn::detail
