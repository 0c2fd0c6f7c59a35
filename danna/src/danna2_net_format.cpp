#include <volley/danna/danna2_net_format.hpp>

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace volley::danna {

namespace {

struct line_reader {
    const std::string& source;
    int number;

    [[noreturn]] void fail(const std::string& why) const {
        throw file_format_error(source, "line " + std::to_string(number), why);
    }

    /// Reads exactly `count` integers after the tag; anything else is an error.
    std::vector<long long> integers(std::istringstream& words, int count, const char* form) const {
        std::vector<long long> v;
        std::string w;
        while (words >> w) {
            std::size_t used = 0;
            long long x = 0;
            try {
                x = std::stoll(w, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != w.size()) fail("'" + w + "' is not an integer (expected " + form + ")");
            v.push_back(x);
        }
        if (static_cast<int>(v.size()) != count)
            fail("expected " + std::string(form) + ", got " + std::to_string(v.size()) +
                 " numbers");
        return v;
    }
};

}  // namespace

danna2_net read_danna2_net(std::istream& in, const std::string& source) {
    danna2_net file;
    bool header = false;
    std::map<std::pair<int, int>, node_id> at;
    struct pending {
        int line;
        bool input;
        long long id, x, y;
    };
    struct pending_synapse {
        int line;
        node_id to;
        long long x, y, weight, delay;
    };
    std::vector<pending> io;
    std::vector<pending_synapse> syn;
    std::string text;
    for (int number = 1; std::getline(in, text); ++number) {
        line_reader r{source, number};
        std::istringstream words(text);
        std::string tag;
        if (!(words >> tag) || tag[0] == '#') continue;
        if (!header) {
            if (tag != "w") r.fail("expected the header 'w W h H l L s S'");
            std::string h, l, s;
            long long w = 0, hh = 0, ll = 0, ss = 0;
            if (!(words >> w >> h >> hh >> l >> ll >> s >> ss) || h != "h" || l != "l" || s != "s")
                r.fail("malformed header; expected 'w W h H l L s S'");
            std::string extra;
            if (words >> extra) r.fail("unexpected '" + extra + "' after the header");
            if (w < 1 || hh < 1 || w > 65535 || hh > 65535)
                r.fail("array size " + std::to_string(w) + " x " + std::to_string(hh) +
                       " out of range");
            file.width = static_cast<int>(w);
            file.height = static_cast<int>(hh);
            file.l = static_cast<int>(ll);
            file.s = static_cast<int>(ss);
            header = true;
            continue;
        }
        const auto inside = [&](long long x, long long y) {
            if (x < 0 || y < 0 || x >= file.width || y >= file.height)
                r.fail("cell (" + std::to_string(x) + ", " + std::to_string(y) +
                       ") is outside the " + std::to_string(file.width) + " x " +
                       std::to_string(file.height) + " array");
        };
        if (tag == "N") {
            const auto v = r.integers(words, 4, "N x y threshold refractory");
            inside(v[0], v[1]);
            const auto id = static_cast<node_id>(file.net.neurons.size());
            if (!at.emplace(std::pair<int, int>(static_cast<int>(v[0]), static_cast<int>(v[1])), id)
                     .second)
                r.fail("a neuron already sits at (" + std::to_string(v[0]) + ", " +
                       std::to_string(v[1]) + ")");
            if (v[2] < -1000000 || v[2] > 1000000 || v[3] < 0 || v[3] > 1000000)
                r.fail("threshold or refractory out of range");
            file.net.neurons.push_back({id, static_cast<int>(v[2]), static_cast<int>(v[3]), "",
                                        cell{static_cast<int>(v[0]), static_cast<int>(v[1])}});
        } else if (tag == "S") {
            const auto v = r.integers(words, 4, "S pre_x pre_y weight delay");
            if (file.net.neurons.empty()) r.fail("a synapse line must follow its neuron's N line");
            inside(v[0], v[1]);
            if (v[3] < 1 || v[3] > 65535) r.fail("delay " + std::to_string(v[3]) + " must be >= 1");
            if (v[2] < -1000000 || v[2] > 1000000) r.fail("weight out of range");
            syn.push_back({number, file.net.neurons.back().id, v[0], v[1], v[2], v[3]});
        } else if (tag == "I" || tag == "O") {
            const auto v = r.integers(words, 3, tag == "I" ? "I id x y" : "O id x y");
            inside(v[1], v[2]);
            if (v[0] < 0) r.fail("negative I/O id");
            io.push_back({number, tag == "I", v[0], v[1], v[2]});
        } else {
            r.fail("unknown line type '" + tag + "' (expected N, S, I or O)");
        }
    }
    if (!header) throw file_format_error(source, "line 1", "missing header 'w W h H l L s S'");
    std::set<std::pair<node_id, node_id>> pairs;
    for (const auto& s : syn) {
        const line_reader r{source, s.line};
        const auto it = at.find({static_cast<int>(s.x), static_cast<int>(s.y)});
        if (it == at.end())
            r.fail("no neuron at pre-neuron cell (" + std::to_string(s.x) + ", " +
                   std::to_string(s.y) + ")");
        if (!pairs.insert({it->second, s.to}).second) r.fail("duplicate synapse");
        file.net.synapses.push_back(
            {it->second, s.to, static_cast<int>(s.weight), static_cast<int>(s.delay), false});
    }
    for (bool input : {true, false}) {
        std::map<long long, node_id> by_id;
        for (const auto& p : io) {
            if (p.input != input) continue;
            const line_reader r{source, p.line};
            const auto it = at.find({static_cast<int>(p.x), static_cast<int>(p.y)});
            if (it == at.end())
                r.fail("no neuron at (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")");
            if (!by_id.emplace(p.id, it->second).second)
                r.fail(std::string(input ? "input" : "output") + " id " + std::to_string(p.id) +
                       " is used twice");
        }
        long long expect = 0;
        for (const auto& [id, n] : by_id) {
            if (id != expect++)
                throw file_format_error(source, "",
                                        std::string(input ? "input" : "output") +
                                            " ids must be 0, 1, 2, ... without gaps; missing " +
                                            std::to_string(expect - 1));
            (input ? file.net.inputs : file.net.outputs).push_back(n);
        }
    }
    return file;
}

void write_danna2_net(std::ostream& out, const danna2_net& file) {
    out << "w " << file.width << " h " << file.height << " l " << file.l << " s " << file.s << '\n';
    std::map<node_id, cell> pos;
    for (const auto& n : file.net.neurons) {
        if (!n.position)
            throw invalid_parameter("danna2.net writer", "node " + std::to_string(n.id), "",
                                    "has no grid position");
        pos[n.id] = *n.position;
    }
    for (const auto& n : file.net.neurons) {
        out << "N " << n.position->x << ' ' << n.position->y << ' ' << n.threshold << ' '
            << n.refractory << '\n';
        for (const auto& s : file.net.synapses)
            if (s.to == n.id)
                out << "S " << pos.at(s.from).x << ' ' << pos.at(s.from).y << ' ' << s.weight << ' '
                    << s.delay << '\n';
    }
    for (std::size_t i = 0; i < file.net.inputs.size(); ++i)
        out << "I " << i << ' ' << pos.at(file.net.inputs[i]).x << ' '
            << pos.at(file.net.inputs[i]).y << '\n';
    for (std::size_t i = 0; i < file.net.outputs.size(); ++i)
        out << "O " << i << ' ' << pos.at(file.net.outputs[i]).x << ' '
            << pos.at(file.net.outputs[i]).y << '\n';
}

danna2_net load_danna2_net(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the file");
    return read_danna2_net(in, path);
}

void save_danna2_net(const danna2_net& file, const std::string& path) {
    std::ostringstream text;
    write_danna2_net(text, file);
    write_text_file(path, text.str(), "danna2 network");
}

danna2_net with_positions(const hardware_network& net, int width, int height) {
    danna2_net file{width, height, 0, 0, net};
    std::set<std::pair<int, int>> used;
    for (const auto& n : net.neurons)
        if (n.position) used.insert({n.position->x, n.position->y});
    int next = 0;
    for (auto& n : file.net.neurons) {
        if (n.position) continue;
        while (next < width * height && used.count({next % width, next / width})) ++next;
        if (next >= width * height)
            throw invalid_parameter("danna2.net writer", "array size",
                                    std::to_string(width) + " x " + std::to_string(height),
                                    "too small for the network");
        n.position = cell{next % width, next / width};
        used.insert({n.position->x, n.position->y});
    }
    return file;
}

}  // namespace volley::danna
