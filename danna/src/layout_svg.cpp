#include <volley/danna/layout_svg.hpp>

#include <volley/error.hpp>

#include <fstream>
#include <sstream>

namespace volley::danna {

namespace {

const char* fill_of(element_kind k) {
    switch (k) {
        case element_kind::neuron:
            return "#e4572e";
        case element_kind::synapse:
            return "#4c9f70";
        case element_kind::fanout:
            return "#f3a712";
        case element_kind::empty:
            break;
    }
    return "#f4f4f4";
}

}  // namespace

std::string layout_svg(const grid_programme& prog) {
    constexpr int cell_px = 24, margin = 30;
    const int w = prog.params.width, h = prog.params.height;
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w * cell_px + 2 * margin
      << "\" height=\"" << h * cell_px + 2 * margin + 30 << "\" font-family=\"sans-serif\">\n";
    s << "<defs><marker id=\"a\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" "
         "markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/>"
         "</marker></defs>\n";
    s << "<text x=\"" << margin << "\" y=\"18\" font-size=\"13\">danna " << prog.params.preset
      << " " << w << "x" << h
      << ": neuron (red), synapse (green), fan-out (orange); arrows: port reads</text>\n";
    const auto centre = [&](int c, char axis) {
        const cell at = prog.position(c);
        return margin + (axis == 'x' ? at.x : at.y) * cell_px + cell_px / 2;
    };
    for (int c = 0; c < prog.params.cells(); ++c) {
        const cell at = prog.position(c);
        s << "<rect x=\"" << margin + at.x * cell_px << "\" y=\"" << margin + at.y * cell_px
          << "\" width=\"" << cell_px - 1 << "\" height=\"" << cell_px - 1 << "\" fill=\""
          << fill_of(prog.kind[static_cast<std::size_t>(c)]) << "\"/>\n";
    }
    for (int c = 0; c < prog.params.cells(); ++c) {
        for (int p = 0; p < ports_per_element; ++p) {
            if ((prog.ports[static_cast<std::size_t>(c)] >> p & 1) == 0) continue;
            const int src = prog.port_source(c, p);
            if (src < 0) continue;
            s << "<line x1=\"" << centre(src, 'x') << "\" y1=\"" << centre(src, 'y') << "\" x2=\""
              << centre(c, 'x') << "\" y2=\"" << centre(c, 'y')
              << "\" stroke=\"#333\" stroke-width=\"1.2\" marker-end=\"url(#a)\"/>\n";
        }
    }
    for (const auto& n : prog.nodes)
        s << "<text x=\"" << centre(n.cell, 'x') << "\" y=\"" << centre(n.cell, 'y') + 4
          << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"white\">" << n.id << "</text>\n";
    for (int c = 0; c < prog.params.cells(); ++c)
        if (prog.kind[static_cast<std::size_t>(c)] == element_kind::synapse)
            s << "<text x=\"" << centre(c, 'x') << "\" y=\"" << centre(c, 'y') + 3
              << "\" font-size=\"7\" text-anchor=\"middle\">"
              << prog.weight[static_cast<std::size_t>(c)] << "/"
              << prog.delay[static_cast<std::size_t>(c)] << "</text>\n";
    s << "<text x=\"" << margin << "\" y=\"" << h * cell_px + 2 * margin + 15
      << "\" font-size=\"11\">synapse labels: weight/delay (delay after fan-out compensation)"
      << "</text>\n</svg>\n";
    return s.str();
}

void save_layout_svg(const grid_programme& prog, const std::string& path) {
    std::ofstream out(path);
    if (!out) throw io_error(path, "cannot create the file");
    out << layout_svg(prog);
    if (!out) throw io_error(path, "write failed");
}

}  // namespace volley::danna
