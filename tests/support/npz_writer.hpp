#pragma once
// A minimal .npy / .npz writer for tests: float64 or int32 arrays in C order, each member
// stored or raw-deflated with zlib. It follows the NumPy format spec (NEP 1) and the zip
// APPNOTE, independently of the reader under test.

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace volley::test {

/// The bytes of a .npy (version 1.0) holding `values` with `shape`; dtype "<f8" or "<i4".
inline std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<double>& values,
                             const std::string& dtype = "<f8", bool fortran = false) {
    std::string sh = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) sh += std::to_string(shape[k]) + (shape.size() == 1 || k + 1 < shape.size() ? "," : "");
    sh += ")";
    std::string header = "{'descr': '" + dtype + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + sh + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (double v : values) {
        if (dtype == "<i4") {
            const auto x = static_cast<std::int32_t>(v);
            out.append(reinterpret_cast<const char*>(&x), 4);
        } else {
            out.append(reinterpret_cast<const char*>(&v), 8);
        }
    }
    return out;
}

inline void put(std::string& b, std::uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) b += static_cast<char>((v >> (8 * k)) & 0xFF);
}

/// Writes a zip archive of the given (name, bytes) members, deflated when `deflate`.
inline void write_zip(const std::string& file, const std::vector<std::pair<std::string, std::string>>& members, bool deflate) {
    std::string out, central;
    for (const auto& [name, data] : members) {
        std::string body = data;
        if (deflate) {
            z_stream zs{};
            deflateInit2(&zs, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
            body.assign(deflateBound(&zs, data.size()), '\0');
            zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
            zs.avail_in = static_cast<uInt>(data.size());
            zs.next_out = reinterpret_cast<Bytef*>(body.data());
            zs.avail_out = static_cast<uInt>(body.size());
            ::deflate(&zs, Z_FINISH);
            body.resize(zs.total_out);
            deflateEnd(&zs);
        }
        const auto crc = crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
        const std::uint16_t method = deflate ? 8 : 0;
        const std::size_t offset = out.size();
        put(out, 0x04034b50, 4); put(out, 20, 2); put(out, 0, 2); put(out, method, 2); put(out, 0, 4);
        put(out, crc, 4); put(out, body.size(), 4); put(out, data.size(), 4); put(out, name.size(), 2); put(out, 0, 2);
        out += name;
        out += body;
        put(central, 0x02014b50, 4); put(central, 20, 2); put(central, 20, 2); put(central, 0, 2); put(central, method, 2);
        put(central, 0, 4); put(central, crc, 4); put(central, body.size(), 4); put(central, data.size(), 4);
        put(central, name.size(), 2); put(central, 0, 2); put(central, 0, 2); put(central, 0, 2); put(central, 0, 2);
        put(central, 0, 4); put(central, offset, 4);
        central += name;
    }
    const std::size_t cd = out.size();
    out += central;
    put(out, 0x06054b50, 4); put(out, 0, 2); put(out, 0, 2); put(out, members.size(), 2); put(out, members.size(), 2);
    put(out, central.size(), 4); put(out, cd, 4); put(out, 0, 2);
    std::ofstream(file, std::ios::binary) << out;
}

}  // namespace volley::test
