#pragma once
// Helpers shared by the engine's tests: rasters as sorted (step, global neuron) pairs, and a
// check that an exception has the expected type and names the expected facts.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

namespace volley::snn::testing {

/// One spike: the step it is stamped with and the neuron's global id.
struct raster_event {
    std::int64_t step;
    std::uint32_t neuron;
    friend auto operator<=>(const raster_event&, const raster_event&) = default;
};

/// Every spike of the given recorders as (step, global id), sorted. The order of spikes inside
/// one step is not part of the engine's contract, so rasters are compared as sorted sets.
inline std::vector<raster_event> raster(std::initializer_list<const spike_recorder*> recorders) {
    std::vector<raster_event> r;
    for (const auto* rec : recorders)
        for (std::size_t i = 0; i < rec->size(); ++i)
            r.push_back({rec->steps()[i], rec->data().first_neuron + rec->node_ids()[i]});
    std::sort(r.begin(), r.end());
    return r;
}

/// Spike steps of each local neuron of one recorder: result[i] lists neuron i's spike steps.
inline std::vector<std::vector<std::int64_t>> spike_steps_by_neuron(const spike_recorder& rec) {
    std::vector<std::vector<std::int64_t>> by(rec.data().population_size);
    for (std::size_t i = 0; i < rec.size(); ++i) by[rec.node_ids()[i]].push_back(rec.steps()[i]);
    for (auto& v : by) std::sort(v.begin(), v.end());
    return by;
}

/// Passes when `f` throws exactly an `E` (or a subclass) whose what() contains every string of
/// `needles`; fails naming what was thrown instead.
template <class E, class F>
::testing::AssertionResult throws_naming(F&& f, std::initializer_list<std::string> needles) {
    try {
        f();
    } catch (const E& e) {
        const std::string what = e.what();
        for (const auto& n : needles)
            if (what.find(n) == std::string::npos)
                return ::testing::AssertionFailure() << "message \"" << what << "\" lacks \"" << n << "\"";
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "threw " << typeid(e).name() << " (not the expected "
                                             << typeid(E).name() << "): " << e.what();
    }
    return ::testing::AssertionFailure() << "nothing was thrown";
}

}  // namespace volley::snn::testing
