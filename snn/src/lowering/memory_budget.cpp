#include "lowering/memory_budget.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <variant>
#include <fstream>
#include <sstream>
#include <string>

namespace volley::snn::detail {

namespace {

/// The first number after `key` in /proc/meminfo [kB -> bytes]; 0 when absent.
std::uint64_t meminfo_bytes(const std::string& key) {
    std::ifstream in("/proc/meminfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + ":", 0) == 0) {
            std::istringstream fields(line.substr(key.size() + 1));
            std::uint64_t kb = 0;
            fields >> kb;
            return kb * 1024;
        }
    return 0;
}

/// A cgroup v2 file holding one number ("max" or unreadable: 0).
std::uint64_t cgroup_number(const char* file) {
    std::ifstream in(std::string("/sys/fs/cgroup/") + file);
    std::uint64_t v = 0;
    return (in >> v) ? v : 0;
}

std::string gib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    return buf;
}

}  // namespace

std::uint64_t minimum_engine_bytes(const lowered_network& low) {
    const std::uint64_t neurons = low.first.empty() ? 0 : low.first.back();
    const std::uint64_t slots = std::uint64_t{low.synapses.max_delay} + 1;
    // The ring holds the rank's domain only (the neuron state is still the whole network's).
    const std::uint64_t domain = low.part_bounds.empty() ? neurons : low.part_bounds.back() - low.part_bounds.front();
    std::uint64_t synapses = 0;
    for (const auto& part : low.synapses.tables)
        for (const auto& table : part)
            for (const std::uint32_t row : table.row_sizes) synapses += row;
    return neurons * 16 + domain * 16 * slots + synapses * 4;
}

std::uint64_t available_memory_bytes() {
    std::uint64_t available = meminfo_bytes("MemAvailable");
    const std::uint64_t cap = cgroup_number("memory.max"), used = cgroup_number("memory.current");
    if (cap > 0 && cap > used && (available == 0 || cap - used < available)) available = cap - used;
    return available;
}

double expected_synapses(const network& net, std::size_t projection) {
    const auto& q = net.projections()[projection];
    const double ns = net.at(q.source).size, nt = net.at(q.target).size;
    return std::visit(
        [&](const auto& c) -> double {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, all_to_all>) return ns * nt;
            else if constexpr (std::is_same_v<C, one_to_one>) return nt;
            else if constexpr (std::is_same_v<C, fixed_probability>) return c.p * ns * nt;
            else if constexpr (std::is_same_v<C, fixed_in_degree>) return static_cast<double>(c.k) * nt;
            else if constexpr (std::is_same_v<C, fixed_total_number>) return static_cast<double>(c.n);
            else if constexpr (std::is_same_v<C, from_list>) return static_cast<double>(c.sources.size());
            else return 0.0;
        },
        q.rule);
}

void check_expected_size(const network& net, std::uint64_t limit_bytes, int ranks) {
    const std::uint64_t limit = limit_bytes ? limit_bytes : available_memory_bytes();
    if (limit == 0 || net.projections().empty()) return;
    double synapses = 0, most = -1;
    std::size_t largest = 0;
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const double s = expected_synapses(net, q);
        synapses += s;
        if (s > most) most = s, largest = q;
    }
    const double need = static_cast<double>(net.neuron_count()) * 16 + synapses * 4 / std::max(1, ranks);
    if (need <= static_cast<double>(limit)) return;
    const auto& q = net.projections()[largest];
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", most);
    throw invalid_parameter("projection " + std::to_string(largest) + " ('" + net.at(q.source).name + "' -> '" +
                                net.at(q.target).name + "')",
                            "synapses", std::string("about ") + count,
                            "the network needs at least " + gib(static_cast<std::uint64_t>(std::min(need, 1.8e19))) +
                                " (4 bytes per synapse" + (ranks > 1 ? " of this rank" : "") +
                                ", 16 per neuron) and " + (limit_bytes ? "the limit is " : "this machine has ") +
                                gib(limit) + (limit_bytes ? "" : " available"));
}

void check_memory_budget(const network& net, const lowered_network& low, std::uint64_t limit_bytes) {
    const std::uint64_t limit = limit_bytes ? limit_bytes : available_memory_bytes();
    if (limit == 0) return;
    const std::uint64_t need = minimum_engine_bytes(low);
    if (need <= limit) return;
    std::size_t largest = 0;
    for (std::size_t p = 1; p < net.populations().size(); ++p)
        if (net.populations()[p].size > net.populations()[largest].size) largest = p;
    const auto& pop = net.populations()[largest];
    throw invalid_parameter("population '" + pop.name + "'", "size", std::to_string(pop.size),
                            "the network needs at least " + gib(need) + " (" + std::to_string(low.first.back()) +
                                " neurons" + ") and " + (limit_bytes ? "the limit is " : "this machine has ") +
                                gib(limit) + (limit_bytes ? "" : " available"));
}

}  // namespace volley::snn::detail
