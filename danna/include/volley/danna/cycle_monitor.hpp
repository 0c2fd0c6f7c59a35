#pragma once
// The monitor of the element grid: every element's charge and fired bit, every cycle, like
// the hardware's row and column read-out shift registers (US 10,248,675), limited to a
// window of cycles so that long runs stay small.

#include <volley/danna/cycle_engine.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::danna {

/// Frames of element state for the cycles [first, last).
///
/// HDF5 layout written by write_hdf5:
///   /monitor/charge  int16  [cycles, height, width]  neuron charge after the cycle (0 for
///                                                   other elements)
///   /monitor/fired   uint8  [cycles, height, width]  1 when the element fired (neuron),
///                                                   relayed (fan-out) or delivered (synapse)
///   /monitor/cycle   int64  [cycles]                 the absolute cycle of each frame
///   attributes on /monitor: width, height, first_cycle, last_cycle (uint32; last exclusive)
class cycle_monitor {
  public:
    /// A monitor of a width × height grid for the cycles [first, last).
    cycle_monitor(int width, int height, cycle_t first, cycle_t last);

    /// True when cycle t is inside the window.
    bool wants(cycle_t t) const { return t >= first_ && t < last_; }
    /// Adds the frame of cycle t; `charge` and `fired` hold one value per cell.
    void record(cycle_t t, const std::vector<std::int16_t>& charge,
                const std::vector<std::uint8_t>& fired);

    /// Number of frames recorded.
    std::size_t frames() const { return cycles_.size(); }
    /// Charge of cell `cell` in frame `frame`.
    std::int16_t charge(std::size_t frame, int cell) const;
    /// Fired bit of cell `cell` in frame `frame`.
    bool fired(std::size_t frame, int cell) const;
    /// Absolute cycle of frame `frame`.
    cycle_t cycle(std::size_t frame) const { return cycles_[frame]; }

    /// Writes the frames to an HDF5 file (truncated); io_error if that fails.
    void write_hdf5(const std::string& path) const;

  private:
    int width_, height_;
    cycle_t first_, last_;
    std::vector<cycle_t> cycles_;
    std::vector<std::int16_t> charge_;
    std::vector<std::uint8_t> fired_;
};

}  // namespace volley::danna
