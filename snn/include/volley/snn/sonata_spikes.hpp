#pragma once
// Spike recordings in the SONATA spike file layout (docs/recording-format.md):
//   /spikes                      attributes magic = 0x0A7A (uint32), version = [0, 1] (uint32[2])
//   /spikes/<population>         attribute sorting (enum {none, by_id, by_time})
//   /spikes/<population>/node_ids    uint64 [n]  the population-local node id of each spike
//   /spikes/<population>/timestamps  float64 [n] spike times, attribute units = "ms"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace volley::snn {

/// Streams spikes into a SONATA spike file, population by population.
///
/// Appended spikes are buffered in memory and written in chunks; flush() writes the buffers and
/// makes the file valid and complete up to that point, so a run that dies later still leaves a
/// readable file holding every spike appended before the last flush(). The `sorting` attribute
/// says "by_time" while each population's spikes arrive in non-decreasing time, and is
/// rewritten to "none" as soon as one arrives out of order.
class sonata_spike_writer {
  public:
    /// Creates (truncates) `file`. Throws io_error naming the file if it cannot.
    explicit sonata_spike_writer(const std::filesystem::path& file);
    /// Closes the file; never throws (errors on this last write are lost: call close() to see
    /// them).
    ~sonata_spike_writer();
    /// Takes over the open file; the moved-from writer is closed.
    sonata_spike_writer(sonata_spike_writer&&) noexcept;
    /// Closes this writer's file (ignoring errors), then takes over `other`'s.
    sonata_spike_writer& operator=(sonata_spike_writer&&) noexcept;
    sonata_spike_writer(const sonata_spike_writer&) = delete;
    sonata_spike_writer& operator=(const sonata_spike_writer&) = delete;

    /// Adds the group /spikes/<name> and returns its index for append(). invalid_parameter if
    /// the name is empty, contains '/', is "." or is already used in this file.
    std::size_t add_population(const std::string& name);

    /// Appends spikes of population `population`: node_ids[i] fired at timestamps_ms[i] [ms].
    /// invalid_parameter if the spans differ in length, a time is not finite, or the index is
    /// unknown; io_error if the file is closed or a write fails.
    void append(std::size_t population, std::span<const std::uint64_t> node_ids,
                std::span<const double> timestamps_ms);

    /// Writes all buffered spikes and flushes the file (H5Fflush), so that it is valid and
    /// complete up to here even if the process dies later. io_error on failure.
    void flush();

    /// Writes buffered spikes and closes the file. Idempotent. io_error on failure.
    void close();

    /// The file being written.
    const std::filesystem::path& path() const;

    /// Number of spikes appended to `population` so far (written or still buffered).
    std::uint64_t spike_count(std::size_t population) const;

  private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// The spikes of one population, as read from a SONATA spike file.
struct population_spikes {
    std::string population;               ///< population name (the group under /spikes)
    std::vector<std::uint64_t> node_ids;  ///< population-local node id of each spike
    std::vector<double> timestamps_ms;    ///< spike times [ms], same length as node_ids
};

/// Reads every population of a SONATA spike file, in the order the populations were written
/// (or by name where the file does not track creation order). Timestamps whose `units`
/// attribute is "s" are converted to ms. io_error if the file cannot be opened;
/// file_format_error naming the file and the object (e.g. "/spikes/exc/timestamps") if the
/// layout is not SONATA's.
std::vector<population_spikes> read_sonata_spikes(const std::filesystem::path& file);

}  // namespace volley::snn
