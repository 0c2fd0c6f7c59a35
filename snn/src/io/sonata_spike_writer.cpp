#include <volley/snn/sonata_spikes.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

#include "io/sonata_layout.hpp"

#include <cmath>
#include <limits>

namespace volley::snn {

namespace {

using detail::hdf5_id;

// SONATA's sorting attribute is an HDF5 enum {none = 0, by_id = 1, by_time = 2}.
void write_sorting_attribute(hid_t group, detail::spike_sorting sorting, const std::string& file) {
    detail::hdf5_quiet quiet;
    hdf5_id type(H5Tenum_create(H5T_NATIVE_UINT8), H5Tclose);
    detail::check_hdf5(type.valid() ? 0 : -1, file, "create the sorting enum type");
    const std::pair<const char*, detail::spike_sorting> members[] = {
        {"none", detail::spike_sorting::none},
        {"by_id", detail::spike_sorting::by_id},
        {"by_time", detail::spike_sorting::by_time}};
    for (const auto& [name, value] : members)
        detail::check_hdf5(H5Tenum_insert(type.get(), name, &value), file,
                           "create the sorting enum type");
    if (H5Aexists(group, "sorting") > 0)
        detail::check_hdf5(H5Adelete(group, "sorting"), file, "replace attribute 'sorting'");
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id attr(H5Acreate2(group, "sorting", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose);
    if (!attr.valid()) throw io_error(file, "HDF5 failed to create attribute 'sorting'");
    detail::check_hdf5(H5Awrite(attr.get(), type.get(), &sorting), file,
                       "write attribute 'sorting'");
}

}  // namespace

struct sonata_spike_writer::impl {
    struct population {
        std::string name;
        hdf5_id group, node_ids, timestamps;
        std::vector<std::uint64_t> pending_ids;
        std::vector<double> pending_times_ms;
        std::uint64_t count = 0;
        std::uint64_t written = 0;  // spikes already handed to HDF5
        double last_time_ms = -std::numeric_limits<double>::infinity();
        bool time_ordered = true;
    };

    std::filesystem::path path;
    std::string file;  // path as text, for error messages
    hdf5_id h5file, spikes_group;
    std::vector<population> populations;
    // A bound on the file space HDF5 may allocate until the next flush [bytes]: the chunks the
    // writes since the last flush touch, and the metadata of the groups added since then.
    std::uint64_t unflushed_bytes = 0;

    // Before every write: room on disk for what HDF5 may allocate until the next flush, plus
    // 64 KiB, so that a full disk is an error here and never a half-written file
    // (reserve_file_space). Each chunk is counted whole, with 1 KiB for its entry in the chunk
    // index (a v1 B-tree node of 64 entries takes about 2 KiB).
    void reserve() {
        detail::reserve_file_space(h5file.get(), unflushed_bytes + (64u << 10), file);
    }

    void write_pending(population& pop) {
        if (pop.pending_ids.empty()) return;
        const std::string object = "/spikes/" + pop.name;
        const std::uint64_t c = detail::spike_chunk_size;
        const std::uint64_t chunks = (pop.written % c + pop.pending_ids.size() + c - 1) / c;
        unflushed_bytes += chunks * (c * (sizeof(std::uint64_t) + sizeof(double)) + (2u << 10));
        reserve();
        detail::append_rows(pop.node_ids.get(), H5T_NATIVE_UINT64, pop.pending_ids.data(),
                            pop.pending_ids.size(), 0, file, object + "/node_ids");
        detail::append_rows(pop.timestamps.get(), H5T_NATIVE_DOUBLE, pop.pending_times_ms.data(),
                            pop.pending_times_ms.size(), 0, file, object + "/timestamps");
        pop.written += pop.pending_ids.size();
        pop.pending_ids.clear();
        pop.pending_times_ms.clear();
    }

    /// Writes every buffer and flushes the file, within reserved space; then gives the rest of
    /// the reservation back.
    void write_all_and_flush() {
        for (auto& pop : populations) write_pending(pop);
        reserve();
        detail::hdf5_quiet quiet;
        detail::check_hdf5(H5Fflush(h5file.get(), H5F_SCOPE_GLOBAL), file, "flush the file");
        detail::release_reserved_space(h5file.get(), file);
        unflushed_bytes = 0;
    }

    void require_open() const {
        if (!h5file.valid()) throw io_error(file, "the spike writer is closed");
    }
};

sonata_spike_writer::sonata_spike_writer(const std::filesystem::path& file)
    : impl_(std::make_unique<impl>()) {
    impl_->path = file;
    impl_->file = file.string();
    impl_->h5file = detail::create_hdf5_file(file);
    impl_->unflushed_bytes = 16u << 10;
    impl_->reserve();
    impl_->spikes_group = detail::create_group(impl_->h5file.get(), "spikes", impl_->file);
    const std::uint32_t magic = detail::sonata_magic;
    detail::write_u32_attribute(impl_->spikes_group.get(), "magic", {&magic, 1}, impl_->file);
    detail::write_u32_attribute(impl_->spikes_group.get(), "version", detail::sonata_version,
                                impl_->file);
}

sonata_spike_writer::~sonata_spike_writer() {
    try {
        close();
    } catch (...) {
    }
}

sonata_spike_writer::sonata_spike_writer(sonata_spike_writer&&) noexcept = default;

sonata_spike_writer& sonata_spike_writer::operator=(sonata_spike_writer&& other) noexcept {
    if (this != &other) {
        try {
            close();
        } catch (...) {
        }
        impl_ = std::move(other.impl_);
    }
    return *this;
}

std::size_t sonata_spike_writer::add_population(const std::string& name) {
    if (!impl_) throw io_error("", "the spike writer was moved from");
    impl_->require_open();
    const std::string& file = impl_->file;
    detail::check_link_name("spike file '" + file + "'", "population", name);
    for (const auto& pop : impl_->populations)
        if (pop.name == name)
            throw invalid_parameter("spike file '" + file + "'", "population", "'" + name + "'",
                                    "already added to this file");
    impl_->unflushed_bytes += 16u << 10;  // a group, two datasets and three attributes
    impl_->reserve();
    impl::population pop;
    pop.name = name;
    pop.group = detail::create_group(impl_->spikes_group.get(), name, file);
    write_sorting_attribute(pop.group.get(), detail::spike_sorting::by_time, file);
    pop.node_ids = detail::create_extendible_dataset(pop.group.get(), "node_ids", H5T_STD_U64LE, 0,
                                                     detail::spike_chunk_size, file);
    pop.timestamps = detail::create_extendible_dataset(
        pop.group.get(), "timestamps", H5T_IEEE_F64LE, 0, detail::spike_chunk_size, file);
    detail::write_string_attribute(pop.timestamps.get(), "units", "ms", file);
    impl_->populations.push_back(std::move(pop));
    return impl_->populations.size() - 1;
}

void sonata_spike_writer::append(std::size_t population, std::span<const std::uint64_t> node_ids,
                                 std::span<const double> timestamps_ms) {
    if (!impl_) throw io_error("", "the spike writer was moved from");
    impl_->require_open();
    const std::string& file = impl_->file;
    if (population >= impl_->populations.size())
        throw invalid_parameter(
            "spike file '" + file + "'", "population index", std::to_string(population),
            "only " + std::to_string(impl_->populations.size()) + " populations were added");
    auto& pop = impl_->populations[population];
    const std::string object = "spikes of population '" + pop.name + "' in '" + file + "'";
    if (node_ids.size() != timestamps_ms.size())
        throw invalid_parameter(object, "timestamps_ms.size()",
                                std::to_string(timestamps_ms.size()),
                                "must equal node_ids.size() = " + std::to_string(node_ids.size()));
    for (std::size_t i = 0; i < timestamps_ms.size(); ++i) {
        const double t = timestamps_ms[i];
        if (!std::isfinite(t))
            throw invalid_parameter(object, "timestamps_ms[" + std::to_string(i) + "]",
                                    std::to_string(t), "must be finite");
    }
    for (double t : timestamps_ms) {
        if (t < pop.last_time_ms && pop.time_ordered) {
            pop.time_ordered = false;
            impl_->unflushed_bytes += 4u << 10;
            impl_->reserve();
            write_sorting_attribute(pop.group.get(), detail::spike_sorting::none, file);
        }
        pop.last_time_ms = t;
    }
    pop.pending_ids.insert(pop.pending_ids.end(), node_ids.begin(), node_ids.end());
    pop.pending_times_ms.insert(pop.pending_times_ms.end(), timestamps_ms.begin(),
                                timestamps_ms.end());
    pop.count += node_ids.size();
    if (pop.pending_ids.size() >= detail::spike_chunk_size) impl_->write_pending(pop);
}

void sonata_spike_writer::flush() {
    if (!impl_) throw io_error("", "the spike writer was moved from");
    impl_->require_open();
    impl_->write_all_and_flush();
}

void sonata_spike_writer::close() {
    if (!impl_ || !impl_->h5file.valid()) return;
    std::string failure;
    try {
        impl_->write_all_and_flush();
    } catch (const io_error& e) {
        failure = e.what();
    }
    bool ok = true;
    for (auto& pop : impl_->populations) {
        ok &= pop.node_ids.reset();
        ok &= pop.timestamps.reset();
        ok &= pop.group.reset();
    }
    ok &= impl_->spikes_group.reset();
    ok &= impl_->h5file.reset();
    if (!failure.empty()) throw io_error(impl_->file, "closing failed: " + failure);
    if (!ok) throw io_error(impl_->file, "HDF5 failed to close the file");
}

const std::filesystem::path& sonata_spike_writer::path() const {
    static const std::filesystem::path none;
    return impl_ ? impl_->path : none;
}

std::uint64_t sonata_spike_writer::spike_count(std::size_t population) const {
    if (!impl_ || population >= impl_->populations.size())
        throw invalid_parameter("spike writer", "population index", std::to_string(population),
                                "no such population");
    return impl_->populations[population].count;
}

}  // namespace volley::snn
