#pragma once
// The `danna` element grid as a neuroprocessor: loading a network places and routes it onto
// the grid, then the cycle-accurate grid engine runs it.

#include <volley/danna/cycle_processor.hpp>
#include <volley/danna/grid_engine.hpp>
#include <volley/danna/place_and_route.hpp>

#include <map>

namespace volley::danna {

/// A danna processor on one grid preset.
class grid_processor : public cycle_processor {
  public:
    /// A processor for a grid; networks are placed with `options`.
    explicit grid_processor(grid_params params = grid_preset("tiny"),
                            place_and_route_options options = {});

    std::string name() const override { return "danna"; }
    /// Node Threshold and Refractory, edge Weight and Delay, in the grid's ranges.
    hw::property_pack network_properties() const override;
    /// The grid parameters as JSON.
    nlohmann::json parameters() const override { return params_.to_json(); }
    /// The grid parameters.
    const grid_params& params() const { return params_; }
    hw::cost_report costs(int network_id = 0) const override;

    /// Loads a programme as it is (no place and route).
    void load_programme(const grid_programme& prog, int network_id = 0);
    /// The place-and-route report of a loaded network (an empty report for a programme).
    const route_report& report(int network_id = 0) const;
    /// The grid engine of a loaded network (for monitors and learnt programmes).
    grid_engine& engine_of(int network_id = 0);

  protected:
    std::unique_ptr<cycle_engine> make_engine(const hardware_network& net, int network_id) override;
    network_limits limits() const override { return params_.limits; }
    int default_refractory() const override { return params_.default_refractory; }
    double spike_value_factor() const override { return params_.spike_value_factor; }
    void on_clear(int network_id) override;

  private:
    grid_params params_;
    place_and_route_options options_;
    std::map<int, route_report> reports_;
    std::map<int, grid_engine*> engines_;
    std::map<int, std::map<std::string, std::int64_t>> elements_;
    const grid_programme* preset_programme_ = nullptr;
};

}  // namespace volley::danna
