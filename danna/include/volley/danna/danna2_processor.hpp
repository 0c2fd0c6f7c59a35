#pragma once
// The DANNA 2 element-core model as a neuroprocessor (DANNA.md, "danna2: element cores").

#include <volley/danna/cycle_processor.hpp>
#include <volley/danna/danna2_params.hpp>

namespace volley::danna {

/// A danna2 processor: neurons anywhere on the array, synapses from any neuron, the cycle
/// semantics of the element grid without its neighbour limits.
class danna2_processor : public cycle_processor {
  public:
    /// A processor with the given parameters.
    explicit danna2_processor(danna2_params params = {});

    std::string name() const override { return "danna2"; }
    hw::property_pack network_properties() const override { return params_.network_properties(); }
    nlohmann::json parameters() const override { return params_.to_json(); }
    /// The parameters.
    const danna2_params& params() const { return params_; }
    hw::cost_report costs(int network_id = 0) const override;

  protected:
    std::unique_ptr<cycle_engine> make_engine(const hardware_network& net, int network_id) override;
    network_limits limits() const override { return params_.limits; }
    int default_refractory() const override { return params_.default_refractory; }
    double spike_value_factor() const override { return params_.spike_value_factor; }

  private:
    danna2_params params_;
    std::map<int, std::pair<std::int64_t, std::int64_t>> sizes_;  // neurons, synapses
};

}  // namespace volley::danna
