#pragma once
// An SVG picture of a grid programme: one square per cell coloured by element kind, neuron
// ids written on their cells, and every enabled port drawn as an arrow from the element read
// to the element reading it, so that placement and routes can be read off the picture.

#include <volley/danna/grid_programme.hpp>

#include <string>

namespace volley::danna {

/// The SVG text of a programme's layout.
std::string layout_svg(const grid_programme& prog);

/// Writes layout_svg(prog) to `path`; io_error if it cannot be written.
void save_layout_svg(const grid_programme& prog, const std::string& path);

}  // namespace volley::danna
