#pragma once
// How a failed write is named in an error: the system's reason and, when the reason is a full
// disk, a quota or a file-size limit, the space left where the file is ("No space left on device,
// 12.0 KiB free on its file system").

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

namespace volley {

/// `bytes` as "812 bytes", "12.0 KiB", "3.4 MiB" or "2.1 GiB".
inline std::string byte_count_text(std::uintmax_t bytes) {
    if (bytes < 10240) return std::to_string(bytes) + " bytes";
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes) / 1024;
    int u = 0;
    while (v >= 1024 && u < 3) v /= 1024, ++u;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", v, units[u]);
    return text;
}

/// strerror(err), with the free space of the file system holding `file` for ENOSPC, EDQUOT and
/// EFBIG (a file-size limit: the disk may have room, and saying so tells the two apart).
inline std::string write_error_text(int err, const std::filesystem::path& file) {
    std::string text = std::strerror(err);
    if (err != ENOSPC && err != EDQUOT && err != EFBIG) return text;
    std::error_code ec;
    const auto dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    const auto space = std::filesystem::space(dir, ec);
    if (!ec) text += ", " + byte_count_text(space.available) + " free on its file system";
    return text;
}

}  // namespace volley
