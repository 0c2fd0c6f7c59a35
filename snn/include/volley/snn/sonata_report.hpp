#pragma once
// State-variable traces in the SONATA report layout (docs/recording-format.md):
//   /report/<group>/data               float64 [n_samples, n_nodes], attributes units, variable
//   /report/<group>/mapping/node_ids   uint64 [n_nodes]
//   /report/<group>/mapping/index_pointers  uint64 [n_nodes + 1] = 0, 1, ..., n_nodes
//   /report/<group>/mapping/element_ids     uint32 [n_nodes] = 0 (one element per point neuron)
//   /report/<group>/mapping/time       float64 [3] = {t_start, t_stop, dt}, attribute units = "ms"
// and the group attribute population = <population>.
//
// Group naming rule: the first variable recorded for a population in a file takes the plain
// SONATA group /report/<population>, so a file with one variable per population is exactly
// SONATA's layout. Each further variable of that population goes to
// /report/<population>__<variable>. Readers take the population from the group's `population`
// attribute and the variable from the data's `variable` attribute, never from the group name.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace volley::snn {

/// Streams sampled state variables (one row of values per sample) into a SONATA report file.
///
/// Rows are buffered in memory and written in chunks; flush() writes the buffers, updates
/// t_stop and flushes the file, so that it is valid and complete up to that point even if the
/// process dies later. t_stop = t_start + n_samples * dt [ms] (exclusive, as in SONATA).
class sonata_report_writer {
  public:
    /// Creates (truncates) `file`. Throws io_error naming the file if it cannot.
    explicit sonata_report_writer(const std::filesystem::path& file);
    /// Opens an existing HDF5 file (e.g. one made by sonata_spike_writer and closed) and adds
    /// /report to it (or adds reports to its existing /report). io_error if it cannot be
    /// opened for writing; file_format_error if it is not an HDF5 file.
    static sonata_report_writer append_to(const std::filesystem::path& file);
    /// Closes the file; never throws (call close() to see errors).
    ~sonata_report_writer();
    /// Takes over the open file; the moved-from writer is closed.
    sonata_report_writer(sonata_report_writer&&) noexcept;
    /// Closes this writer's file (ignoring errors), then takes over `other`'s.
    sonata_report_writer& operator=(sonata_report_writer&&) noexcept;
    sonata_report_writer(const sonata_report_writer&) = delete;
    sonata_report_writer& operator=(const sonata_report_writer&) = delete;

    /// Adds a report of `variable` (in `units`, e.g. "mV") for the nodes `node_ids` of
    /// `population`, sampled every `dt_ms` [ms] from `t_start_ms` [ms]. Returns its index for
    /// append(). invalid_parameter if a name is empty or contains '/', node_ids is empty,
    /// dt_ms is not > 0, t_start_ms is not finite, or this population's `variable` is already
    /// in the file.
    std::size_t add_report(const std::string& population, const std::string& variable,
                           const std::string& units, std::span<const std::uint64_t> node_ids,
                           double t_start_ms, double dt_ms);

    /// Appends one sample row: values[i] belongs to node_ids[i]. invalid_parameter if
    /// values.size() != node_ids.size() or the index is unknown; io_error if closed.
    void append(std::size_t report, std::span<const double> values);

    /// Writes all buffered rows, updates each t_stop and flushes the file (H5Fflush).
    void flush();

    /// Writes buffered rows and closes the file. Idempotent. io_error on failure.
    void close();

    /// The file being written.
    const std::filesystem::path& path() const;

    /// The HDF5 group of report `report`, e.g. "/report/exc" or "/report/exc__g_e".
    const std::string& group_path(std::size_t report) const;

  private:
    struct impl;
    explicit sonata_report_writer(std::unique_ptr<impl> state);
    std::unique_ptr<impl> impl_;
};

/// One report (one variable of one population) read from a SONATA report file.
struct population_report {
    std::string population;               ///< population name
    std::string variable;                 ///< recorded variable, e.g. "v_mv" ("" if not stored)
    std::string units;                    ///< units of data, e.g. "mV" ("" if not stored)
    std::vector<std::uint64_t> node_ids;  ///< recorded nodes, one column each
    double t_start_ms = 0;                ///< time of the first sample [ms]
    double t_stop_ms = 0;                 ///< t_start_ms + samples * dt_ms [ms] (exclusive)
    double dt_ms = 0;                     ///< sampling interval [ms]
    std::vector<double> data;             ///< row-major [samples][node_ids.size()]
    std::size_t samples = 0;              ///< number of rows in data
};

/// Reads every report under /report, in the order written. io_error if the file cannot be
/// opened; file_format_error naming the file and object (e.g. "/report/exc/mapping/time")
/// if the layout is not SONATA's.
std::vector<population_report> read_sonata_report(const std::filesystem::path& file);

}  // namespace volley::snn
