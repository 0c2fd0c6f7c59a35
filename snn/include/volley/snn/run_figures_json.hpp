#pragma once
// The figures of a recorded run as the JSON object that `volley run --json` prints and
// volley.Simulation.run_recorded returns (as a dict).

#include <nlohmann/json.hpp>

#include <volley/snn/run_figures.hpp>

namespace volley::snn {

/// The figures as one JSON object: every field by its name, the optional ones only when set
/// (start_ms only with resumed_from), the paths as strings.
nlohmann::json run_figures_json(const run_figures& figures);

}  // namespace volley::snn
