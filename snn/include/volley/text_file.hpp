#pragma once
// Writing a whole text file (JSON, SVG, TENNLab networks) so that it is never half written: the
// text goes to `FILE.tmp`, which is renamed over FILE only once it is complete. A full disk or
// any other write error is an io_error naming the file, the temporary file is removed, and a
// file there before is kept.

#include <volley/error.hpp>
#include <volley/write_error.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace volley {

/// Writes `text` to `path` as above; `what` names the file's kind in errors ("SVG file").
inline void write_text_file(const std::filesystem::path& path, std::string_view text, const std::string& what) {
    auto tmp = path;
    tmp += ".tmp";
    std::error_code ec;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw io_error(path.string(), "cannot create the " + what + " (" + std::strerror(errno) + ")");
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.flush();
        if (!out) {
            const std::string why = write_error_text(errno, path);
            out.close();
            std::filesystem::remove(tmp, ec);
            throw io_error(path.string(), "cannot write the " + what + " of " + std::to_string(text.size()) + " bytes (" +
                                              why + "); nothing was written under this name, and a file there before is kept");
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw io_error(path.string(), "cannot replace it with the new " + what + ": " + ec.message());
    }
}

}  // namespace volley
