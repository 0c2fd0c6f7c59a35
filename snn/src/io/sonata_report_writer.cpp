#include <volley/snn/sonata_report.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

#include "io/sonata_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>

namespace volley::snn {

namespace {

using detail::hdf5_id;

std::string format_double(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

}  // namespace

struct sonata_report_writer::impl {
    struct report {
        std::string group_path;
        std::size_t n_nodes = 0;
        std::size_t rows_per_chunk = 1;
        double t_start_ms = 0, dt_ms = 0;
        std::uint64_t samples_written = 0;
        hdf5_id group, mapping, data, time;
        std::vector<double> pending;  // row-major, whole rows only
    };

    std::filesystem::path path;
    std::string file;
    hdf5_id h5file, report_group;
    std::vector<report> reports;

    // A bound on the file space HDF5 may allocate until the next flush [bytes] (whole chunks,
    // and the metadata of what was added), reserved on disk before each write: see the spike
    // writer (sonata_spike_writer.cpp) and detail::reserve_file_space.
    std::uint64_t unflushed_bytes = 0;

    void require_open() const {
        if (!h5file.valid()) throw io_error(file, "the report writer is closed");
    }

    void reserve(std::uint64_t more) {
        unflushed_bytes += more;
        detail::reserve_file_space(h5file.get(), unflushed_bytes + (64u << 10), file);
    }

    void write_all_and_flush() {
        for (auto& r : reports) write_pending(r);
        reserve(0);
        detail::hdf5_quiet quiet;
        detail::check_hdf5(H5Fflush(h5file.get(), H5F_SCOPE_GLOBAL), file, "flush the file");
        detail::release_reserved_space(h5file.get(), file);
        unflushed_bytes = 0;
    }

    void write_pending(report& r) {
        const std::size_t rows = r.pending.size() / r.n_nodes;
        if (rows == 0) return;
        const std::uint64_t chunks =
            (r.samples_written % r.rows_per_chunk + rows + r.rows_per_chunk - 1) / r.rows_per_chunk;
        reserve(chunks * (r.rows_per_chunk * r.n_nodes * sizeof(double) + (2u << 10)));
        detail::append_rows(r.data.get(), H5T_NATIVE_DOUBLE, r.pending.data(), rows, r.n_nodes,
                            file, r.group_path + "/data");
        r.samples_written += rows;
        r.pending.clear();
        const double time[3] = {
            r.t_start_ms, r.t_start_ms + static_cast<double>(r.samples_written) * r.dt_ms, r.dt_ms};
        detail::overwrite_dataset(r.time.get(), H5T_NATIVE_DOUBLE, time, file,
                                  r.group_path + "/mapping/time");
    }

    // Opens or creates /report in an open file.
    void open_report_group() {
        report_group = detail::open_group_if_present(h5file.get(), "report");
        if (!report_group.valid()) {
            if (detail::has_link(h5file.get(), "report"))
                throw file_format_error(file, "/report", "exists but is not a group");
            report_group = detail::create_group(h5file.get(), "report", file);
        }
    }

    // The variable already recorded in /report/<name>, or "" if the group does not exist.
    std::optional<std::string> existing_variable(const std::string& name) const {
        if (!detail::has_link(report_group.get(), name)) return std::nullopt;
        hdf5_id data = detail::open_dataset_if_present(report_group.get(), name + "/data");
        if (!data.valid()) return std::string();
        return detail::read_string_attribute(data.get(), "variable").value_or("");
    }
};

sonata_report_writer::sonata_report_writer(std::unique_ptr<impl> state) : impl_(std::move(state)) {}

sonata_report_writer::sonata_report_writer(const std::filesystem::path& file)
    : impl_(std::make_unique<impl>()) {
    impl_->path = file;
    impl_->file = file.string();
    impl_->h5file = detail::create_hdf5_file(file);
    impl_->reserve(16u << 10);
    impl_->open_report_group();
}

sonata_report_writer sonata_report_writer::append_to(const std::filesystem::path& file) {
    auto state = std::make_unique<impl>();
    state->path = file;
    state->file = file.string();
    state->h5file = detail::open_hdf5_file(file, true);
    state->reserve(16u << 10);
    state->open_report_group();
    return sonata_report_writer(std::move(state));
}

sonata_report_writer::~sonata_report_writer() {
    try {
        close();
    } catch (...) {
    }
}

sonata_report_writer::sonata_report_writer(sonata_report_writer&&) noexcept = default;

sonata_report_writer& sonata_report_writer::operator=(sonata_report_writer&& other) noexcept {
    if (this != &other) {
        try {
            close();
        } catch (...) {
        }
        impl_ = std::move(other.impl_);
    }
    return *this;
}

std::size_t sonata_report_writer::add_report(const std::string& population,
                                             const std::string& variable, const std::string& units,
                                             std::span<const std::uint64_t> node_ids,
                                             double t_start_ms, double dt_ms) {
    if (!impl_) throw io_error("", "the report writer was moved from");
    impl_->require_open();
    const std::string& file = impl_->file;
    const std::string object = "report file '" + file + "'";
    detail::check_link_name(object, "population", population);
    const std::string report_object =
        "report of '" + variable + "' for population '" + population + "' in '" + file + "'";
    detail::check_link_name(report_object, "variable", variable);
    if (node_ids.empty())
        throw invalid_parameter(report_object, "node_ids.size()", "0", "must record a node");
    if (!(dt_ms > 0) || !std::isfinite(dt_ms))
        throw invalid_parameter(report_object, "dt_ms", format_double(dt_ms), "must be > 0");
    if (!std::isfinite(t_start_ms))
        throw invalid_parameter(report_object, "t_start_ms", format_double(t_start_ms),
                                "must be finite");

    std::string name = population;
    if (auto first = impl_->existing_variable(population)) {
        const std::string suffixed = population + "__" + variable;
        if (*first == variable || detail::has_link(impl_->report_group.get(), suffixed))
            throw invalid_parameter(report_object, "variable", "'" + variable + "'",
                                    "is already recorded for this population in this file");
        name = suffixed;
    }

    impl_->reserve((32u << 10) + node_ids.size() * 24);  // groups, attributes, mapping
    impl::report r;
    r.group_path = "/report/" + name;
    r.n_nodes = node_ids.size();
    r.rows_per_chunk = std::max<std::size_t>(1, detail::report_chunk_values / r.n_nodes);
    r.t_start_ms = t_start_ms;
    r.dt_ms = dt_ms;
    r.group = detail::create_group(impl_->report_group.get(), name, file);
    detail::write_string_attribute(r.group.get(), "population", population, file);
    r.data = detail::create_extendible_dataset(r.group.get(), "data", H5T_IEEE_F64LE, r.n_nodes,
                                               r.rows_per_chunk, file);
    detail::write_string_attribute(r.data.get(), "units", units, file);
    detail::write_string_attribute(r.data.get(), "variable", variable, file);

    r.mapping = detail::create_group(r.group.get(), "mapping", file);
    detail::write_fixed_dataset(r.mapping.get(), "node_ids", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                                node_ids.data(), node_ids.size(), file);
    std::vector<std::uint64_t> index_pointers(r.n_nodes + 1);
    std::iota(index_pointers.begin(), index_pointers.end(), std::uint64_t{0});
    detail::write_fixed_dataset(r.mapping.get(), "index_pointers", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                                index_pointers.data(), index_pointers.size(), file);
    std::vector<std::uint32_t> element_ids(r.n_nodes, 0);
    detail::write_fixed_dataset(r.mapping.get(), "element_ids", H5T_STD_U32LE, H5T_NATIVE_UINT32,
                                element_ids.data(), element_ids.size(), file);
    const double time[3] = {t_start_ms, t_start_ms, dt_ms};
    r.time = detail::write_fixed_dataset(r.mapping.get(), "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                         time, 3, file);
    detail::write_string_attribute(r.time.get(), "units", "ms", file);
    impl_->reports.push_back(std::move(r));
    return impl_->reports.size() - 1;
}

void sonata_report_writer::append(std::size_t report, std::span<const double> values) {
    if (!impl_) throw io_error("", "the report writer was moved from");
    impl_->require_open();
    if (report >= impl_->reports.size())
        throw invalid_parameter(
            "report file '" + impl_->file + "'", "report index", std::to_string(report),
            "only " + std::to_string(impl_->reports.size()) + " reports were added");
    auto& r = impl_->reports[report];
    if (values.size() != r.n_nodes)
        throw invalid_parameter("report " + r.group_path + " in '" + impl_->file + "'",
                                "values.size()", std::to_string(values.size()),
                                "must equal node_ids.size() = " + std::to_string(r.n_nodes));
    r.pending.insert(r.pending.end(), values.begin(), values.end());
    if (r.pending.size() >= r.rows_per_chunk * r.n_nodes) impl_->write_pending(r);
}

void sonata_report_writer::flush() {
    if (!impl_) throw io_error("", "the report writer was moved from");
    impl_->require_open();
    impl_->write_all_and_flush();
}

void sonata_report_writer::close() {
    if (!impl_ || !impl_->h5file.valid()) return;
    std::string failure;
    try {
        impl_->write_all_and_flush();
    } catch (const io_error& e) {
        failure = e.what();
    }
    bool ok = true;
    for (auto& r : impl_->reports) {
        ok &= r.time.reset();
        ok &= r.data.reset();
        ok &= r.mapping.reset();
        ok &= r.group.reset();
    }
    ok &= impl_->report_group.reset();
    ok &= impl_->h5file.reset();
    if (!failure.empty()) throw io_error(impl_->file, "closing failed: " + failure);
    if (!ok) throw io_error(impl_->file, "HDF5 failed to close the file");
}

const std::filesystem::path& sonata_report_writer::path() const {
    static const std::filesystem::path none;
    return impl_ ? impl_->path : none;
}

const std::string& sonata_report_writer::group_path(std::size_t report) const {
    if (!impl_ || report >= impl_->reports.size())
        throw invalid_parameter("report writer", "report index", std::to_string(report),
                                "no such report");
    return impl_->reports[report].group_path;
}

}  // namespace volley::snn
