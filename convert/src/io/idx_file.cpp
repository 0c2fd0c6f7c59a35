// IDX reading through zlib's gz* interface, which also reads uncompressed files transparently.

#include <volley/convert/idx_file.hpp>
#include <volley/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <string>

namespace volley::convert {

namespace {

struct gz_closer {
    void operator()(gzFile f) const noexcept { gzclose(f); }
};

/// Reads exactly `bytes` bytes; returns how many were read.
std::size_t read_bytes(gzFile f, void* out, std::size_t bytes, const std::string& file) {
    std::size_t done = 0;
    auto* p = static_cast<unsigned char*>(out);
    while (done < bytes) {
        const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(bytes - done, 1u << 30));
        const int got = gzread(f, p + done, chunk);
        if (got < 0) {
            int code = 0;
            const char* msg = gzerror(f, &code);
            throw file_format_error(file, "", std::string("corrupt gzip data: ") + msg);
        }
        if (got == 0) break;
        done += static_cast<std::size_t>(got);
    }
    return done;
}

}  // namespace

idx_array read_idx(const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw io_error(file, "not found; run scripts/setup to install it (Debian package "
                             "dataset-fashion-mnist) or pass --data-dir");
    std::unique_ptr<gzFile_s, gz_closer> f(gzopen(file.c_str(), "rb"));
    if (!f) throw io_error(file, "cannot be opened for reading");
    unsigned char magic[4];
    if (read_bytes(f.get(), magic, 4, file) != 4)
        throw file_format_error(file, "header", "shorter than the 4-byte IDX magic number");
    if (magic[0] != 0 || magic[1] != 0)
        throw file_format_error(file, "header",
                                "bad IDX magic number (first two bytes " +
                                    std::to_string(magic[0]) + ", " + std::to_string(magic[1]) +
                                    "; expected 0, 0)");
    if (magic[2] != 0x08)
        throw file_format_error(file, "header",
                                "IDX element type " + std::to_string(magic[2]) +
                                    " is not supported (expected 8, unsigned byte)");
    if (magic[3] == 0 || magic[3] > 4)
        throw file_format_error(file, "header",
                                "IDX dimension count " + std::to_string(magic[3]) +
                                    " is out of range (1..4)");
    idx_array out;
    std::size_t total = 1;
    for (int d = 0; d < magic[3]; ++d) {
        unsigned char b[4];
        if (read_bytes(f.get(), b, 4, file) != 4)
            throw file_format_error(file, "header", "truncated in dimension " + std::to_string(d));
        const std::uint32_t n = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) |
                                (std::uint32_t{b[2]} << 8) | std::uint32_t{b[3]};
        if (n == 0 || total > (std::size_t{1} << 34) / n)
            throw file_format_error(file, "header",
                                    "dimension " + std::to_string(d) + " = " + std::to_string(n) +
                                        " is out of range");
        out.dims.push_back(n);
        total *= n;
    }
    // Read in slabs, growing the array with the data: the header's size is only a promise, and a
    // damaged header must not make the reader allocate gigabytes before the data runs out (found
    // by tests/fuzz: 12 GB for a 40-byte file).
    constexpr std::size_t slab = std::size_t{1} << 24;
    std::size_t got = 0;
    while (got < total) {
        const std::size_t want = std::min(slab, total - got);
        out.values.resize(got + want);
        const std::size_t n = read_bytes(f.get(), out.values.data() + got, want, file);
        got += n;
        if (n < want) break;
    }
    out.values.resize(got);
    if (got != total)
        throw file_format_error(file, "data",
                                "holds " + std::to_string(got) + " values; the header promises " +
                                    std::to_string(total));
    unsigned char extra;
    if (read_bytes(f.get(), &extra, 1, file) != 0)
        throw file_format_error(file, "data", "has bytes after the " + std::to_string(total) +
                                                  " values the header promises");
    return out;
}

}  // namespace volley::convert
