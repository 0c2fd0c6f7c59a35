#include <volley/snn/spike_csv.hpp>

#include <volley/error.hpp>
#include <volley/write_error.hpp>

#include "io/write_fully.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace volley::snn {

namespace {

constexpr std::string_view csv_header = "population,node_id,time_ms";

std::string quote_if_needed(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string quoted = "\"";
    for (char c : field) {
        if (c == '"') quoted.push_back('"');
        quoted.push_back(c);
    }
    quoted.push_back('"');
    return quoted;
}

/// Writes whole lines to a file through a buffer of about 1 MiB. When a write fails (a full
/// disk, a file-size limit), the file is cut back to its last complete line and io_error says how
/// many lines and bytes it keeps: a reader of the file never meets half a line.
class line_writer {
  public:
    explicit line_writer(const std::filesystem::path& file) : name_(file.string()) {
        fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) throw io_error(name_, std::string("cannot create CSV file: ") + std::strerror(errno));
    }
    line_writer(const line_writer&) = delete;
    line_writer& operator=(const line_writer&) = delete;
    ~line_writer() {
        if (fd_ >= 0) ::close(fd_);
    }
    void add(std::string_view line) {
        buffer_.append(line);
        ++buffered_lines_;
        if (buffer_.size() >= (std::size_t{1} << 20)) flush();
    }
    void close() {
        flush();
        const int fd = std::exchange(fd_, -1);
        if (::close(fd) != 0) fail(errno, 0);
    }

  private:
    void flush() {
        int error = 0;
        const std::size_t done = detail::write_fully(fd_, buffer_.data(), buffer_.size(), error);
        if (error != 0) fail(error, done);
        kept_bytes_ += buffer_.size();
        kept_lines_ += buffered_lines_;
        buffer_.clear();
        buffered_lines_ = 0;
    }
    [[noreturn]] void fail(int err, std::size_t written) {
        // Keep the complete lines of what reached the file.
        const std::string_view part(buffer_.data(), written);
        const std::size_t last = part.rfind('\n');
        const std::size_t whole = last == std::string_view::npos ? 0 : last + 1;
        const auto lines = static_cast<std::size_t>(std::count(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(whole), '\n'));
        if (fd_ >= 0) {
            if (::ftruncate(fd_, static_cast<off_t>(kept_bytes_ + whole)) != 0) {}
            ::close(std::exchange(fd_, -1));
        }
        throw io_error(name_, "failed writing CSV file (" + write_error_text(err, name_) + "); it keeps its first " +
                                  std::to_string(kept_lines_ + lines) + " complete lines (" +
                                  std::to_string(kept_bytes_ + whole) + " bytes), the header included");
    }

    std::string name_;
    int fd_ = -1;
    std::string buffer_;
    std::size_t buffered_lines_ = 0, kept_lines_ = 0;
    std::uint64_t kept_bytes_ = 0;
};

// Splits one CSV record (which may continue over several physical lines inside quotes) into
// fields. Returns false at end of input.
bool read_record(std::istream& in, std::vector<std::string>& fields, std::size_t& line,
                 const std::string& file) {
    fields.clear();
    std::string text;
    if (!std::getline(in, text)) return false;
    ++line;
    const std::size_t first_line = line;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0;; ++i) {
        if (i == text.size()) {
            if (!quoted) break;
            std::string more;
            if (!std::getline(in, more))
                throw file_format_error(file, "line " + std::to_string(first_line),
                                        "unterminated quoted field");
            ++line;
            field.push_back('\n');
            text = more;
            i = static_cast<std::size_t>(-1);
            continue;
        }
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field.push_back('"');
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field.push_back(c);
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
        } else if (c != '\r' || i + 1 != text.size()) {
            field.push_back(c);
        }
    }
    fields.push_back(std::move(field));
    return true;
}

template <typename T>
T parse_number(const std::string& text, const std::string& file, std::size_t line,
               const char* column) {
    T value{};
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        throw file_format_error(file, "line " + std::to_string(line),
                                std::string(column) + " = '" + text + "' is not a valid number");
    return value;
}

}  // namespace

void write_spike_csv(const std::filesystem::path& file, std::span<const population_spikes> pops) {
    for (const auto& pop : pops)
        if (pop.node_ids.size() != pop.timestamps_ms.size())
            throw invalid_parameter(
                "spikes of population '" + pop.population + "'", "timestamps_ms.size()",
                std::to_string(pop.timestamps_ms.size()),
                "must equal node_ids.size() = " + std::to_string(pop.node_ids.size()));
    line_writer out(file);
    out.add(std::string(csv_header) + '\n');
    std::string line;
    char number[32];
    for (const auto& pop : pops) {
        const std::string name = quote_if_needed(pop.population);
        for (std::size_t i = 0; i < pop.node_ids.size(); ++i) {
            line = name;
            line.push_back(',');
            auto id_end = std::to_chars(number, number + sizeof number, pop.node_ids[i]).ptr;
            line.append(number, id_end);
            line.push_back(',');
            auto t_end = std::to_chars(number, number + sizeof number, pop.timestamps_ms[i]).ptr;
            line.append(number, t_end);
            line.push_back('\n');
            out.add(line);
        }
    }
    out.close();
}

std::vector<population_spikes> read_spike_csv(const std::filesystem::path& file) {
    const std::string name = file.string();
    std::ifstream in(file, std::ios::binary);
    if (!in) throw io_error(name, "cannot open CSV file");
    std::vector<std::string> fields;
    std::size_t line = 0;
    if (!read_record(in, fields, line, name) || fields.size() != 3 || fields[0] != "population" ||
        fields[1] != "node_id" || fields[2] != "time_ms")
        throw file_format_error(name, "line 1",
                                "expected the header '" + std::string(csv_header) + "'");
    std::vector<population_spikes> result;
    std::unordered_map<std::string, std::size_t> index;
    while (read_record(in, fields, line, name)) {
        if (fields.size() == 1 && fields[0].empty()) continue;
        if (fields.size() != 3)
            throw file_format_error(name, "line " + std::to_string(line),
                                    "expected 3 fields, found " + std::to_string(fields.size()));
        auto [it, added] = index.try_emplace(fields[0], result.size());
        if (added) result.push_back({.population = fields[0], .node_ids = {}, .timestamps_ms = {}});
        auto& pop = result[it->second];
        pop.node_ids.push_back(parse_number<std::uint64_t>(fields[1], name, line, "node_id"));
        pop.timestamps_ms.push_back(parse_number<double>(fields[2], name, line, "time_ms"));
    }
    if (in.bad()) throw io_error(name, "failed reading CSV file");
    return result;
}

}  // namespace volley::snn
