#pragma once
// Turning event counts into a cost report (the events part; callers add sizes and constants).

#include <volley/danna/cycle_engine.hpp>
#include <volley/hw/cost_report.hpp>

#include <string>

namespace volley::danna::detail {

/// A report with the processor, preset, cycles and events filled in.
hw::cost_report report_from_counts(const std::string& processor, const std::string& preset,
                                   const event_counts& c, cycle_t cycles);

}  // namespace volley::danna::detail
