#include "lowering/memory_budget.hpp"

#include <volley/error.hpp>

#include <cstdio>
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
