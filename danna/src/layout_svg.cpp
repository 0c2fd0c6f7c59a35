#include <volley/danna/layout_svg.hpp>

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include <algorithm>
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
    // Only the window of the grid that the network uses (and one cell around it), drawn large
    // enough to read its labels: a 14-neuron network on a 65x65 grid would otherwise fill 5%.
    constexpr int cell_px = 40, margin = 30;
    const int w = prog.params.width, h = prog.params.height;
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int c = 0; c < prog.params.cells(); ++c)
        if (prog.kind[static_cast<std::size_t>(c)] != element_kind::empty) {
            const cell at = prog.position(c);
            x0 = std::min(x0, at.x), x1 = std::max(x1, at.x), y0 = std::min(y0, at.y), y1 = std::max(y1, at.y);
        }
    if (x1 < 0) x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;  // nothing placed: the whole grid
    x0 = std::max(0, x0 - 1), y0 = std::max(0, y0 - 1), x1 = std::min(w - 1, x1 + 1), y1 = std::min(h - 1, y1 + 1);
    std::ostringstream title;
    title << "danna " << prog.params.preset << " " << w << "x" << h << ", columns " << x0 << "-" << x1 << ", rows "
          << y0 << "-" << y1 << ": neuron (red), synapse (green), fan-out (orange); arrows: port reads";
    const std::string note = "synapse labels: weight/delay (delay after fan-out compensation)";
    const int text_px = static_cast<int>(7.2 * static_cast<double>(std::max(title.str().size(), note.size())));
    const int width = std::max((x1 - x0 + 1) * cell_px, text_px) + 2 * margin;
    const int height = (y1 - y0 + 1) * cell_px + 2 * margin + 30;
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<defs><marker id=\"a\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" "
         "markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/>"
         "</marker></defs>\n";
    s << "<text x=\"" << margin << "\" y=\"18\" font-size=\"12\">" << title.str() << "</text>\n";
    const auto inside = [&](int c) {
        const cell at = prog.position(c);
        return at.x >= x0 && at.x <= x1 && at.y >= y0 && at.y <= y1;
    };
    const auto corner = [&](int c, char axis) {
        const cell at = prog.position(c);
        return margin + (axis == 'x' ? at.x - x0 : at.y - y0) * cell_px;
    };
    const auto centre = [&](int c, char axis) { return corner(c, axis) + cell_px / 2; };
    for (int c = 0; c < prog.params.cells(); ++c) {
        if (!inside(c)) continue;
        s << "<rect x=\"" << corner(c, 'x') << "\" y=\"" << corner(c, 'y') << "\" width=\"" << cell_px - 2
          << "\" height=\"" << cell_px - 2 << "\" fill=\"" << fill_of(prog.kind[static_cast<std::size_t>(c)]) << "\"/>\n";
    }
    for (int c = 0; c < prog.params.cells(); ++c) {
        if (!inside(c)) continue;
        for (int p = 0; p < ports_per_element; ++p) {
            if ((prog.ports[static_cast<std::size_t>(c)] >> p & 1) == 0) continue;
            const int src = prog.port_source(c, p);
            if (src < 0 || !inside(src)) continue;
            s << "<line x1=\"" << centre(src, 'x') << "\" y1=\"" << centre(src, 'y') << "\" x2=\"" << centre(c, 'x')
              << "\" y2=\"" << centre(c, 'y') << "\" stroke=\"#333\" stroke-width=\"1.2\" marker-end=\"url(#a)\"/>\n";
        }
    }
    for (const auto& n : prog.nodes)
        if (inside(n.cell))
            s << "<text x=\"" << centre(n.cell, 'x') << "\" y=\"" << centre(n.cell, 'y') + 5
              << "\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"white\">" << n.id
              << "</text>\n";
    for (int c = 0; c < prog.params.cells(); ++c)
        if (inside(c) && prog.kind[static_cast<std::size_t>(c)] == element_kind::synapse)
            s << "<text x=\"" << centre(c, 'x') << "\" y=\"" << centre(c, 'y') + 4
              << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"white\">" << prog.weight[static_cast<std::size_t>(c)]
              << "/" << prog.delay[static_cast<std::size_t>(c)] << "</text>\n";
    s << "<text x=\"" << margin << "\" y=\"" << height - 12 << "\" font-size=\"11\">" << note << "</text>\n</svg>\n";
    return s.str();
}

void save_layout_svg(const grid_programme& prog, const std::string& path) {
    write_text_file(path, layout_svg(prog), "layout SVG");
}

}  // namespace volley::danna
