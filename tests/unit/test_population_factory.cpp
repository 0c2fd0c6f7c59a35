// The CPU backend's population kernel factory (snn/src/backends/cpu/population_factory.hpp):
// every model of the neuron_model variant is run by exactly one kernel, the one its family
// (snn/src/lowering/model_family.hpp) names: the linear LIF models by the exact-integration
// kernel, the conductance and nonlinear models by the ODE kernel (is_ode_model agreeing), the
// sources by theirs. And the lowering lists each family's populations in update order.

#include "backends/cpu/population_factory.hpp"
#include "lowering/lowered_network.hpp"

#include <volley/snn/distributed_context.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace {

namespace vs = volley::snn;

template <std::size_t... I>
std::vector<vs::neuron_model> every_model(std::index_sequence<I...>) {
    return {vs::neuron_model(std::in_place_index<I>)...};
}

std::string kernel_of(const vs::neuron_model& m) {
    std::string name;
    int runs = 0;
    for (const auto& k : vs::detail::kernel_rows())
        if (k.family == vs::detail::family_of(m)) name = k.name, ++runs;
    if (runs == 0) return "no kernel";
    return runs == 1 ? name : "several kernels";
}

TEST(population_factory, every_model_has_exactly_one_kernel_of_its_family) {
    const auto models = every_model(std::make_index_sequence<std::variant_size_v<vs::neuron_model>>{});
    for (const auto& m : models)
        EXPECT_EQ(vs::is_ode_model(m), vs::detail::family_of(m) == vs::detail::model_family::ode) << vs::model_name(m);
    for (const auto& m : models) EXPECT_TRUE(!kernel_of(m).ends_with("kernel") && !kernel_of(m).ends_with("kernels"))
        << vs::model_name(m) << ": " << kernel_of(m);
    EXPECT_EQ(kernel_of(vs::lif_delta{}), "lif");
    EXPECT_EQ(kernel_of(vs::lif_exp{}), "lif");
    EXPECT_EQ(kernel_of(vs::lif_alpha{}), "lif");
    EXPECT_EQ(kernel_of(vs::lif_cond_exp{}), "ode");
    EXPECT_EQ(kernel_of(vs::hh{}), "ode");
    EXPECT_EQ(kernel_of(vs::izhikevich{}), "ode");
    EXPECT_EQ(kernel_of(vs::poisson_source{}), "source");
    EXPECT_EQ(kernel_of(vs::spike_source{}), "source");
    EXPECT_EQ(kernel_of(vs::discrete_neuron{}), "discrete");
    EXPECT_EQ(kernel_of(vs::analog_source{}), "analog");
}

TEST(lowering, groups_populations_by_family_in_update_order) {
    vs::network net;
    const auto out = net.add_population("out", 3, vs::lif_exp{});
    const auto cond = net.add_population("cond", 3, vs::lif_cond_exp{});
    const auto in = net.add_population("in", 3, vs::poisson_source{{.rate_hz = 10}});
    const auto mid = net.add_population("mid", 3, vs::lif_delta{});
    net.connect(in, mid, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(mid, out, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});  // mid before out
    net.connect(in, cond, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 1.0});
    const auto low = vs::detail::lower(net, {.dt_ms = 0.1}, vs::local_context(), 1,
                                       [](int parts, const std::function<void(int)>& body) {
                                           for (int k = 0; k < parts; ++k) body(k);
                                       });
    using vs::detail::model_family;
    EXPECT_EQ(low.by_family[static_cast<std::size_t>(model_family::exact_linear)], (std::vector<std::uint32_t>{3, 0}));
    EXPECT_EQ(low.by_family[static_cast<std::size_t>(model_family::ode)], (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(low.by_family[static_cast<std::size_t>(model_family::spike_source)], (std::vector<std::uint32_t>{2}));
    EXPECT_TRUE(low.by_family[static_cast<std::size_t>(model_family::discrete)].empty());
}

}  // namespace
