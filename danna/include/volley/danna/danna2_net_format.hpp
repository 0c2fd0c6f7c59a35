#pragma once
// The DANNA 2 text network format `danna2.net` (DANNA.md, "DANNA 2"):
//   w W h H l 0 s 0          header: array width and height; l and s as published (their
//                            meaning is not, so Volley keeps and writes them unchanged)
//   N x y threshold refractory   a neuron at (x, y)
//   S pre_x pre_y weight delay   a synapse into the neuron of the last N line
//   I id x y / O id x y          input / output number id is the neuron at (x, y)
// Volley also skips blank lines and lines starting with '#'. Neurons get node ids 0, 1, ...
// in file order. Every error names the line number.

#include <volley/danna/hardware_network.hpp>

#include <iosfwd>
#include <string>

namespace volley::danna {

/// A danna2.net file: the array size, the two unpublished header fields and the network.
struct danna2_net {
    int width = 0;         ///< [cells] array width (header `w`)
    int height = 0;        ///< [cells] array height (header `h`)
    int l = 0;             ///< header field `l`, kept as read
    int s = 0;             ///< header field `s`, kept as read
    hardware_network net;  ///< neurons all have a position
};

/// Parses danna2.net text; file_format_error naming `source` and "line N".
danna2_net read_danna2_net(std::istream& in, const std::string& source);
/// Writes danna2.net text. Every neuron needs a position inside the array; Learning flags
/// and names are not part of the format and are not written.
void write_danna2_net(std::ostream& out, const danna2_net& file);
/// Reads a file (io_error, file_format_error).
danna2_net load_danna2_net(const std::string& path);
/// Writes a file (io_error).
void save_danna2_net(const danna2_net& file, const std::string& path);

/// Gives every neuron without a position the next free cell in row-major order and returns
/// the file form; invalid_parameter if the array is too small.
danna2_net with_positions(const hardware_network& net, int width, int height);

}  // namespace volley::danna
