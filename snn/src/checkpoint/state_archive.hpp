#pragma once
// The dynamic state of an engine as named byte records, for simulation::checkpoint and restore
// (docs/engine.md, "Checkpoints"). Every part of the engine that holds state describes it once,
// in a `visit_state(state_archive&)` member that calls field() for each state member: the same
// function saves (reads the members into records) and restores (writes the records back into
// the members), so the two cannot drift apart. Parameters that the network determines are not
// visited; they are rebuilt from the network on restore.
//
// A record holds a value, a vector of values or nested vectors of them, in the machine's byte
// order; a checkpoint is restored on the kind of machine that wrote it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <volley/error.hpp>

namespace volley::snn::detail {

class state_archive {
public:
    enum class direction { save, restore };
    using records = std::map<std::string, std::vector<std::byte>>;

    /// An archive that saves into empty records.
    state_archive() = default;
    /// An archive that restores from `from`; `source` names the file in errors.
    state_archive(records from, std::string source)
        : dir_(direction::restore), records_(std::move(from)), source_(std::move(source)) {}

    bool restoring() const noexcept { return dir_ == direction::restore; }

    /// Saves or restores `value` (a trivially copyable value, or vectors of them, nested) as the
    /// record `name` under the current scope. Restoring throws file_format_error naming the
    /// record when it is missing or its size does not fit.
    template <class T>
    void field(const std::string& name, T& value) {
        const std::string key = prefix_ + name;
        if (dir_ == direction::save) {
            auto& out = records_[key];
            out.clear();
            put(out, value);
            return;
        }
        const auto it = records_.find(key);
        if (it == records_.end()) throw file_format_error(source_, key, "the checkpoint has no such record");
        const std::byte* p = it->second.data();
        const std::byte* end = p + it->second.size();
        get(p, end, value, key);
        if (p != end) throw file_format_error(source_, key, "the record is longer than its value");
        ++used_;
    }

    /// Names the records of a part of the engine: `scope("pop3")` prefixes "pop3/" until the
    /// returned guard ends.
    class scope_guard {
    public:
        scope_guard(state_archive& a, const std::string& name) : a_(a), old_(a.prefix_.size()) { a.prefix_ += name + "/"; }
        ~scope_guard() { a_.prefix_.resize(old_); }
        scope_guard(const scope_guard&) = delete;
        scope_guard& operator=(const scope_guard&) = delete;

    private:
        state_archive& a_;
        std::size_t old_;
    };
    scope_guard scope(const std::string& name) { return scope_guard(*this, name); }

    /// The records (after saving).
    const records& saved() const noexcept { return records_; }
    /// Records restored so far.
    std::size_t restored_count() const noexcept { return used_; }
    std::size_t size() const noexcept { return records_.size(); }

private:
    template <class T>
    struct is_vector : std::false_type {};
    template <class T, class A>
    struct is_vector<std::vector<T, A>> : std::true_type {};

    template <class T>
    static void put(std::vector<std::byte>& out, const T& v) {
        if constexpr (is_vector<T>::value) {
            const std::uint64_t n = v.size();
            put(out, n);
            using E = typename T::value_type;
            if constexpr (!is_vector<E>::value && !std::is_same_v<E, bool>) {
                static_assert(std::is_trivially_copyable_v<E>);
                const auto* b = reinterpret_cast<const std::byte*>(v.data());
                out.insert(out.end(), b, b + n * sizeof(E));
            } else {
                for (const auto& e : v) put(out, e);
            }
        } else {
            static_assert(std::is_trivially_copyable_v<T>, "a state record holds plain values");
            const auto* b = reinterpret_cast<const std::byte*>(&v);
            out.insert(out.end(), b, b + sizeof(T));
        }
    }

    template <class T>
    void get(const std::byte*& p, const std::byte* end, T& v, const std::string& key) const {
        if constexpr (is_vector<T>::value) {
            std::uint64_t n = 0;
            get(p, end, n, key);
            using E = typename T::value_type;
            if constexpr (!is_vector<E>::value && !std::is_same_v<E, bool>) {
                if (n > static_cast<std::uint64_t>(end - p) / sizeof(E)) short_record(key);
                if constexpr (std::is_default_constructible_v<E>) v.resize(static_cast<std::size_t>(n));
                else if (n != v.size())
                    throw file_format_error(source_, key, std::to_string(n) + " values where this simulation has " +
                                                              std::to_string(v.size()));
                if (n != 0) std::memcpy(static_cast<void*>(v.data()), p, n * sizeof(E));
                p += n * sizeof(E);
            } else {
                if (n > static_cast<std::uint64_t>(end - p)) short_record(key);
                v.resize(static_cast<std::size_t>(n));
                for (auto& e : v) get(p, end, e, key);
            }
        } else {
            if (static_cast<std::size_t>(end - p) < sizeof(T)) short_record(key);
            std::memcpy(static_cast<void*>(&v), p, sizeof(T));
            p += sizeof(T);
        }
    }

    [[noreturn]] void short_record(const std::string& key) const {
        throw file_format_error(source_, key, "the record is shorter than its value");
    }

    direction dir_ = direction::save;
    records records_;
    std::string source_;
    std::string prefix_;
    std::size_t used_ = 0;
};

}  // namespace volley::snn::detail
