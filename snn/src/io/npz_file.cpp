// NumPy .npy and .npz reading (see npz_file.hpp).
//
// An .npz is a zip archive of .npy members. The central directory at the end of the archive
// gives each member's compression method, sizes and the offset of its local header (Zip64
// extra fields are honoured: NumPy writes members with force_zip64). Deflated members are
// inflated with zlib (raw deflate). The .npy header is a Python dict literal:
// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }.

#include <volley/error.hpp>
#include <volley/snn/npz_file.hpp>

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace volley::snn {

namespace {

std::string read_all(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw io_error(file.string(), "cannot open for reading");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(k)]);
    return v;
}

struct zip_member {
    std::string name;
    std::uint16_t method = 0;
    std::uint64_t compressed = 0, size = 0, local_offset = 0;
};

std::vector<zip_member> zip_directory(const std::string& b, const std::string& file) {
    auto fail = [&](const std::string& why) -> void { throw file_format_error(file, "", "not a readable zip/npz archive: " + why); };
    if (b.size() < 22) fail("too short");
    std::size_t eocd = std::string::npos;
    for (std::size_t k = b.size() - 22 + 1; k-- > 0 && b.size() - k <= 22 + 65535;)
        if (le(b, k, 4) == 0x06054b50) {
            eocd = k;
            break;
        }
    if (eocd == std::string::npos) fail("no end-of-central-directory record");
    std::uint64_t entries = le(b, eocd + 10, 2), offset = le(b, eocd + 16, 4);
    if (offset == 0xFFFFFFFF || entries == 0xFFFF) {
        // Zip64: the locator just before the record points at the Zip64 end record.
        if (eocd < 20 || le(b, eocd - 20, 4) != 0x07064b50) fail("Zip64 locator missing");
        const std::uint64_t z = le(b, eocd - 20 + 8, 8);
        if (z + 56 > b.size() || le(b, z, 4) != 0x06064b50) fail("bad Zip64 end record");
        entries = le(b, z + 32, 8);
        offset = le(b, z + 48, 8);
    }
    std::vector<zip_member> out;
    std::size_t at = offset;
    for (std::uint64_t e = 0; e < entries; ++e) {
        if (at + 46 > b.size() || le(b, at, 4) != 0x02014b50) fail("bad central directory entry " + std::to_string(e));
        zip_member m;
        m.method = static_cast<std::uint16_t>(le(b, at + 10, 2));
        m.compressed = le(b, at + 20, 4);
        m.size = le(b, at + 24, 4);
        const std::size_t name_len = le(b, at + 28, 2), extra_len = le(b, at + 30, 2), comment_len = le(b, at + 32, 2);
        m.local_offset = le(b, at + 42, 4);
        if (at + 46 + name_len + extra_len > b.size()) fail("truncated central directory");
        m.name = b.substr(at + 46, name_len);
        for (std::size_t x = at + 46 + name_len; x + 4 <= at + 46 + name_len + extra_len;) {
            const std::uint64_t id = le(b, x, 2), len = le(b, x + 2, 2);
            if (id == 0x0001) {
                std::size_t f = x + 4;
                if (m.size == 0xFFFFFFFF) { m.size = le(b, f, 8); f += 8; }
                if (m.compressed == 0xFFFFFFFF) { m.compressed = le(b, f, 8); f += 8; }
                if (m.local_offset == 0xFFFFFFFF) m.local_offset = le(b, f, 8);
            }
            x += 4 + len;
        }
        out.push_back(std::move(m));
        at += 46 + name_len + extra_len + comment_len;
    }
    return out;
}

std::string member_bytes(const std::string& b, const zip_member& m, const std::string& file, const std::string& array) {
    std::string shown = array;  // a damaged name's control bytes (NUL) would cut what() short
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20) c = '?';
    auto fail = [&](const std::string& why) -> void { throw file_format_error(file, "array '" + shown + "'", why); };
    // Offsets and sizes are compared without sums that a hostile 64-bit value could wrap.
    if (m.local_offset > b.size() || b.size() - m.local_offset < 30 ||
        le(b, m.local_offset, 4) != 0x04034b50)
        fail("bad local zip header");
    const std::size_t data = m.local_offset + 30 + le(b, m.local_offset + 26, 2) + le(b, m.local_offset + 28, 2);
    if (data > b.size() || m.compressed > b.size() - data)
        fail("member data runs past the end of the file");
    if (m.method == 0) return b.substr(data, m.size);
    if (m.method != 8) fail("unsupported zip compression method " + std::to_string(m.method) + " (stored and deflated are)");
    // The uncompressed size is the header's claim: deflate cannot expand more than 1032:1, so a
    // larger claim is refused before the buffer is allocated (found by tests/fuzz: a 612-byte
    // archive claiming gigabytes).
    if (m.size / 1032 > m.compressed + 1)
        fail("claims " + std::to_string(m.size) + " bytes uncompressed from " +
             std::to_string(m.compressed) + " compressed, more than deflate can produce");
    std::string out(m.size, '\0');
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) fail("zlib inflateInit2 failed");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(b.data() + data));
    zs.avail_in = static_cast<uInt>(m.compressed);
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&zs, Z_FINISH);
    const auto produced = zs.total_out;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || produced != m.size) fail("corrupt deflated data (zlib code " + std::to_string(rc) + ")");
    return out;
}

/// The text after `key` up to the end of its value in the header dict.
std::string header_value(const std::string& h, const std::string& key, const std::string& where) {
    const auto k = h.find("'" + key + "'");
    if (k == std::string::npos) throw file_format_error(where, "", "npy header has no '" + key + "': " + h);
    auto v = h.find(':', k);
    if (v == std::string::npos) throw file_format_error(where, "", "bad npy header: " + h);
    ++v;
    while (v < h.size() && h[v] == ' ') ++v;
    std::size_t e = v;
    if (h[v] == '(') e = h.find(')', v) + 1;
    else if (h[v] == '\'') e = h.find('\'', v + 1) + 1;
    else
        while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
    return h.substr(v, e - v);
}

template <class T>
T load(const char* p, bool swap) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, p, sizeof(T));
    if (swap) std::reverse(raw, raw + sizeof(T));
    T v;
    std::memcpy(&v, raw, sizeof(T));
    return v;
}

npy_array parse_npy(const std::string& b, const std::string& file, const std::string& array) {
    const std::string where = array.empty() ? "" : "array '" + array + "'";
    auto fail = [&](const std::string& why) -> void { throw file_format_error(file, where, why); };
    if (b.size() < 10 || b.compare(0, 6, "\x93NUMPY") != 0) fail("not a .npy array (bad magic)");
    const int major = static_cast<unsigned char>(b[6]);
    const std::size_t hlen = major == 1 ? le(b, 8, 2) : le(b, 8, 4), start = major == 1 ? 10 : 12;
    if (start + hlen > b.size()) fail("truncated .npy header");
    const std::string h = b.substr(start, hlen);
    const std::string ctx = file + (array.empty() ? "" : ": array '" + array + "'");
    npy_array out;
    out.name = array;
    std::string descr = header_value(h, "descr", ctx);
    if (descr.size() < 2 || descr.front() != '\'') fail("unsupported dtype " + descr);
    descr = descr.substr(1, descr.size() - 2);
    out.dtype = descr;
    const bool fortran = header_value(h, "fortran_order", ctx) == "True";
    const std::string shape = header_value(h, "shape", ctx);
    // Digits only, checked for overflow (std::stoull threw std::invalid_argument on a shape such
    // as "(x,)" and wrapped a product of huge dimensions: found by tests/fuzz).
    auto number = [&](const std::string& text, std::size_t& k, const std::string& what) {
        std::size_t value = 0;
        const std::size_t first = k;
        for (; k < text.size() && text[k] >= '0' && text[k] <= '9'; ++k) {
            const auto digit = static_cast<std::size_t>(text[k] - '0');
            if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10)
                fail(what + " " + text + " is out of range");
            value = value * 10 + digit;
        }
        if (k == first) fail("malformed " + what + " " + text);
        return value;
    };
    for (std::size_t k = 1; k < shape.size();) {
        while (k < shape.size() && (shape[k] == ' ' || shape[k] == ',')) ++k;
        if (k >= shape.size() || shape[k] == ')') break;
        out.shape.push_back(number(shape, k, "shape"));
    }
    if (descr.size() < 3) fail("unsupported dtype '" + descr + "'");
    const char order = descr[0], kind = descr[1];
    std::size_t width_end = 2;
    const std::size_t width = number(descr, width_end, "dtype");
    if (width_end != descr.size() || width == 0)
        fail("unsupported dtype '" + descr + "' (bool, int, uint, float32 and float64 are)");
    const bool swap = (order == '>' && std::endian::native == std::endian::little) ||
                      (order == '<' && std::endian::native == std::endian::big);
    const std::size_t data = start + hlen;
    const std::size_t available = (b.size() - data) / width;  // values the bytes can hold
    std::size_t count = 1;
    for (auto d : out.shape) {
        if (d != 0 && count > available / d) {
            count = available + 1;  // more than the data holds, without overflowing
            break;
        }
        count *= d;
    }
    if (std::find(out.shape.begin(), out.shape.end(), std::size_t{0}) != out.shape.end()) count = 0;
    if (count > available) fail("data too short for shape " + shape + " and dtype " + descr);
    out.values.resize(count);
    const char* p = b.data() + data;
    for (std::size_t i = 0; i < count; ++i, p += width) {
        double v = 0;
        if (kind == 'f' && width == 8) v = load<double>(p, swap);
        else if (kind == 'f' && width == 4) v = load<float>(p, swap);
        else if ((kind == 'i' || kind == 'u' || kind == 'b') && width == 1) v = kind == 'i' ? static_cast<std::int8_t>(*p) : static_cast<unsigned char>(*p);
        else if (kind == 'i' && width == 2) v = load<std::int16_t>(p, swap);
        else if (kind == 'i' && width == 4) v = load<std::int32_t>(p, swap);
        else if (kind == 'i' && width == 8) v = static_cast<double>(load<std::int64_t>(p, swap));
        else if (kind == 'u' && width == 2) v = load<std::uint16_t>(p, swap);
        else if (kind == 'u' && width == 4) v = load<std::uint32_t>(p, swap);
        else if (kind == 'u' && width == 8) v = static_cast<double>(load<std::uint64_t>(p, swap));
        else fail("unsupported dtype '" + descr + "' (bool, int, uint, float32 and float64 are)");
        out.values[i] = v;
    }
    if (fortran && out.shape.size() > 1) {
        // Column-major to row-major: element with multi-index (i0..in) sits at sum ik·stride_k,
        // stride_0 = 1 in Fortran order.
        std::vector<double> c(count);
        std::vector<std::size_t> idx(out.shape.size(), 0);
        for (std::size_t flat = 0; flat < count; ++flat) {
            std::size_t f = 0, stride = 1;
            for (std::size_t k = 0; k < idx.size(); ++k) {
                f += idx[k] * stride;
                stride *= out.shape[k];
            }
            c[flat] = out.values[f];
            for (std::size_t k = idx.size(); k-- > 0;) {
                if (++idx[k] < out.shape[k]) break;
                idx[k] = 0;
            }
        }
        out.values = std::move(c);
    }
    return out;
}

std::string strip_npy(const std::string& name) {
    return name.size() > 4 && name.ends_with(".npy") ? name.substr(0, name.size() - 4) : name;
}

}  // namespace

std::vector<std::string> npz_array_names(const std::filesystem::path& npz) {
    std::vector<std::string> out;
    for (const auto& m : zip_directory(read_all(npz), npz.string())) out.push_back(strip_npy(m.name));
    return out;
}

npy_array read_npz_array(const std::filesystem::path& npz, const std::string& name) {
    const auto bytes = read_all(npz);
    std::string known;
    for (const auto& m : zip_directory(bytes, npz.string())) {
        if (strip_npy(m.name) == name) return parse_npy(member_bytes(bytes, m, npz.string(), name), npz.string(), name);
        known += (known.empty() ? "" : ", ") + strip_npy(m.name);
    }
    throw unknown_name("array", name, npz.string() + " (arrays: " + known + ")");
}

npy_array read_npy(const std::filesystem::path& npy) {
    auto a = parse_npy(read_all(npy), npy.string(), "");
    a.name = npy.stem().string();
    return a;
}

}  // namespace volley::snn
