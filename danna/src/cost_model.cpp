#include "cost_model.hpp"

namespace volley::danna::detail {

hw::cost_report report_from_counts(const std::string& processor, const std::string& preset,
                                   const event_counts& c, cycle_t cycles) {
    hw::cost_report r;
    r.processor = processor;
    r.preset = preset;
    r.cycles = cycles;
    r.events = {
        {"neuron_fires", c.neuron_fires},         {"synapse_deliveries", c.synapse_deliveries},
        {"fanout_relays", c.fanout_relays},       {"inputs", c.inputs},
        {"refractory_drops", c.refractory_drops}, {"fifo_overflows", c.fifo_overflows},
        {"ltp_updates", c.ltp_updates},           {"ltd_updates", c.ltd_updates}};
    return r;
}

}  // namespace volley::danna::detail
