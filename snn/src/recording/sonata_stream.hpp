#pragma once
// The SONATA output of a recorded run (recorded_run.cpp): spikes streamed into the file as the
// run goes, so that a stopped, failed or killed run leaves a valid file with everything up to
// the last flush; state reports and the final plastic weights added at the end.

#include <cstddef>
#include <filesystem>
#include <vector>

#include <volley/snn/recorders.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/sonata_spikes.hpp>

namespace volley::snn::detail {

class sonata_stream {
public:
    /// Creates `file` with one population per spike recorder and flushes it: the layout is on
    /// disk before the first step. The recorders must outlive the stream.
    sonata_stream(const std::filesystem::path& file, const std::vector<spike_recorder>& spikes,
                  const std::vector<state_recorder>& states);

    /// Appends the spikes recorded since the last call and flushes the file.
    void append_new();

    /// Writes the remaining spikes, closes the spike file and adds the state reports.
    void finish();

private:
    std::filesystem::path file_;
    const std::vector<spike_recorder>& spikes_;
    const std::vector<state_recorder>& states_;
    sonata_spike_writer writer_;
    std::vector<std::size_t> written_;
};

/// Adds the current weights of every plastic projection of `sim` to `file` (/weights); nothing
/// when it has none.
void write_plastic_weights(const std::filesystem::path& file, const simulation& sim);

}  // namespace volley::snn::detail
