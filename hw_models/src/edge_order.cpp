#include "edge_order.hpp"

#include <utility>

namespace volley::hw::detail {

namespace {

std::uint64_t hash32(std::uint32_t x) {
    std::uint64_t h = x;
    h ^= h >> 16;
    h *= 0x85ebca6bULL;
    h ^= h >> 13;
    h *= 0xc2b2ae35ULL;
    h ^= h >> 16;
    return h;
}

struct slot {
    std::int64_t edge = -1;  ///< index into the edge list, -1 when empty
    std::uint64_t distance = 0;
    std::uint64_t hash = 0;
};

/// Robin-Hood placement: walk from the home slot, stealing from richer (closer) entries.
void place(std::vector<slot>& table, slot carried) {
    const std::uint64_t mask = table.size() - 1;
    std::uint64_t pos = carried.hash & mask;
    carried.distance = 0;
    for (;;) {
        slot& s = table[pos];
        if (s.edge < 0) {
            s = carried;
            return;
        }
        if (s.distance < carried.distance) std::swap(s, carried);
        pos = (pos + 1) & mask;
        ++carried.distance;
    }
}

}  // namespace

std::vector<std::size_t> reference_edge_order(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
    std::vector<slot> table;
    std::size_t count = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (count >= table.size() / 2) {
            std::vector<slot> bigger(table.empty() ? 2 : table.size() * 2);
            for (const slot& s : table)
                if (s.edge >= 0) place(bigger, s);
            table = std::move(bigger);
        }
        const std::uint64_t a = hash32(edges[i].first);
        const std::uint64_t b = hash32(edges[i].second);
        slot s;
        s.edge = static_cast<std::int64_t>(i);
        s.hash = a ^ (b + 0x9e3779b9ULL + (a << 6) + (a >> 2));
        place(table, s);
        ++count;
    }
    std::vector<std::size_t> order;
    order.reserve(edges.size());
    for (const slot& s : table)
        if (s.edge >= 0) order.push_back(static_cast<std::size_t>(s.edge));
    return order;
}

}  // namespace volley::hw::detail
