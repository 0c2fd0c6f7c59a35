// Analog sources (see analog_population.hpp).

#include "backends/cpu/analog_population.hpp"

namespace volley::snn::detail {

analog_population::analog_population(const network& net, population_index pop)
    : n_(net.at(pop).size), name_(net.at(pop).name), values_(std::get<analog_source>(net.at(pop).model).values) {}

void analog_population::update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                               std::vector<std::uint32_t>& spikes) const {
    if (s < 0 || static_cast<std::size_t>(s) >= values_.size()) return;
    const auto& row = values_[static_cast<std::size_t>(s)];
    for (std::uint32_t i = begin; i < end; ++i)
        if (row[i] != 0) spikes.push_back(i);
}

}  // namespace volley::snn::detail
