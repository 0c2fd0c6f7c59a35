// The CPU backend's population kernel factory (snn/src/backends/cpu/population_factory.hpp):
// every model of the neuron_model variant is run by exactly one kernel, the one its family
// names (the linear LIF models by the exact-integration kernel, the conductance and nonlinear
// models by the ODE kernel, the sources by theirs).

#include "backends/cpu/population_factory.hpp"

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
        if (k.runs(m)) name = k.name, ++runs;
    if (runs == 0) return "no kernel";
    return runs == 1 ? name : "several kernels";
}

TEST(population_factory, every_model_has_exactly_one_kernel_of_its_family) {
    const auto models = every_model(std::make_index_sequence<std::variant_size_v<vs::neuron_model>>{});
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

}  // namespace
