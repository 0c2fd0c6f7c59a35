#include "tool_session.hpp"

#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_json.hpp>
#include <volley/json_text.hpp>

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <ios>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

namespace volley::hw::detail {

std::string strfmt(const char* format, ...) {
    va_list args;
    va_start(args, format);
    char small[256];
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(small, sizeof small, format, copy);
    va_end(copy);
    std::string out;
    if (n >= 0 && static_cast<std::size_t>(n) < sizeof small) {
        out = small;
    } else if (n >= 0) {
        out.resize(static_cast<std::size_t>(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, args);
        out.pop_back();
    }
    va_end(args);
    return out;
}

bool scan_int(const std::string& token, int& value) {
    char* end = nullptr;
    const long long v = std::strtoll(token.c_str(), &end, 10);
    if (end == token.c_str()) return false;
    value = static_cast<int>(v);
    return true;
}

bool scan_uint(const std::string& token, unsigned& value) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(token.c_str(), &end, 10);
    if (end == token.c_str()) return false;
    value = static_cast<unsigned>(v);
    return true;
}

bool scan_double(const std::string& token, double& value) {
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str()) return false;
    value = v;
    return true;
}

tool_session::tool_session(std::istream& in, std::ostream& out, std::ostream& err,
                           processor_factory factory)
    : in_(in), out_(out), err_(err), factory_(std::move(factory)) {}

std::unique_ptr<neuroprocessor> tool_session::make_processor(const std::string& name,
                                                             const nlohmann::json& params,
                                                             const std::string& object) {
    std::vector<std::string> warnings;
    std::unique_ptr<neuroprocessor> proc;
    if (factory_) {
        proc = factory_(name, params, warnings);
    } else {
        if (name != "risp")
            throw tennlab_error(
                object, "Processor::make() called with a name (" + name + ") not equal to risp");
        risp_params p = risp_params::from_json(params);
        warnings = p.warnings;
        auto risp = std::make_unique<risp_processor>(std::move(p));
        risp->set_strict_values(false);
        proc = std::move(risp);
    }
    for (const auto& w : warnings) err_ << w << '\n';
    return proc;
}

risp_processor* tool_session::need_risp(const char* command) {
    auto* risp = dynamic_cast<risp_processor*>(proc_.get());
    if (risp == nullptr)
        print(std::string(command) + " is not supported by the " + proc_->name() + " processor");
    return risp;
}

void tool_session::print(const std::string& line) {
    out_ << line << '\n';
}

bool tool_session::need_loaded() {
    if (proc_ && net_) return true;
    print("Processor or network is not loaded");
    return false;
}

bool tool_session::need_processor() {
    if (proc_) return true;
    print("Must make a processor first");
    return false;
}

void tool_session::report(const std::exception& e, const char* generic) {
    if (const auto* t = dynamic_cast<const tennlab_error*>(&e);
        t != nullptr && !t->reference_message().empty()) {
        print(t->reference_message());
        return;
    }
    print(generic);
    err_ << "volley risp: " << e.what() << '\n';
}

std::optional<nlohmann::json> tool_session::read_json(const tokens& t, std::size_t file_pos) {
    if (t.size() > file_pos) {
        std::ifstream file(t[file_pos]);
        if (!file) {
            err_ << t[file_pos] << ": " << std::strerror(errno) << '\n';
            return std::nullopt;
        }
        try {
            return parse_json_stream(file, t[file_pos]);
        } catch (const file_format_error&) {  // malformed or nested too deep
            return std::nullopt;
        } catch (const io_error&) {
            // libstdc++'s filebuf throws on a read error, e.g. a directory, which opens (found
            // by tests/fuzz: `M .`): report it as an open failure is.
            err_ << t[file_pos] << ": " << std::strerror(errno ? errno : EIO) << '\n';
            return std::nullopt;
        }
    }
    // Read lines until the brackets of one JSON value balance, then parse (the rest of
    // that line is discarded, as in the reference).
    std::string buffer, line;
    int depth = 0;
    bool in_string = false, escaped = false, started = false;
    while (std::getline(in_, line)) {
        buffer += line + "\n";
        for (char ch : line) {
            if (in_string) {
                if (escaped)
                    escaped = false;
                else if (ch == '\\')
                    escaped = true;
                else if (ch == '"')
                    in_string = false;
                continue;
            }
            if (ch == '"')
                in_string = true;
            else if (ch == '{' || ch == '[')
                ++depth;
            else if (ch == '}' || ch == ']')
                --depth;
            if (!std::isspace(static_cast<unsigned char>(ch))) started = true;
        }
        if (!started || depth > 0 || in_string) continue;
        try {
            return parse_json_text(buffer, "standard input");
        } catch (const file_format_error&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::string tool_session::name_of(node_id id) const {
    return tennlab_network::display_name(net_->nodes[node_index_.at(id)]);
}

void tool_session::set_network(tennlab_network net) {
    drop_network();
    net_ = std::move(net);
    for (std::size_t i = 0; i < net_->nodes.size(); ++i) {
        node_index_[net_->nodes[i].id] = i;
        width_ = std::max(width_,
                          static_cast<int>(tennlab_network::display_name(net_->nodes[i]).size()));
    }
    for (std::size_t i = 0; i < net_->inputs.size(); ++i)
        input_index_.emplace(net_->inputs[i], static_cast<int>(i));
    for (std::size_t i = 0; i < net_->outputs.size(); ++i)
        output_index_.emplace(net_->outputs[i], static_cast<int>(i));
}

void tool_session::drop_network() {
    net_.reset();
    node_index_.clear();
    input_index_.clear();
    output_index_.clear();
    width_ = 0;
    applied_.clear();
}

void tool_session::cmd_make_load(const tokens& t) {
    const auto j = read_json(t, 1);
    if (!j) {
        print("usage: ML network_json. Bad json");
        return;
    }
    proc_.reset();
    drop_network();
    const std::string source = t.size() > 1 ? t[1] : "<stdin>";
    try {
        tennlab_network net = tennlab_network::from_json(*j, source);
        const auto& ad = net.associated_data;
        if (!ad.contains("proc_params"))
            throw tennlab_error(source, "Associated data key 'proc_params' not found");
        if (!ad.contains("other"))
            throw tennlab_error(source, "Associated data key 'other' not found");
        const auto& other = ad["other"];
        if (!other.is_object() || !other.contains("proc_name") || !other["proc_name"].is_string())
            throw tennlab_error(source,
                                "Associated_Data.other.proc_name is missing or not a string", "");
        const std::string name = other["proc_name"].get<std::string>();
        auto proc = make_processor(name, ad["proc_params"], source);
        proc->load_network(net);
        for (const auto& node : net.nodes) proc->track_neuron_events(node.id);
        proc_ = std::move(proc);
        set_network(std::move(net));
    } catch (const std::exception& e) {
        report(e, "Unknown error when making processor");
    }
}

void tool_session::cmd_load(const tokens& t) {
    if (!need_processor()) return;
    const auto j = read_json(t, 1);
    if (!j) {
        print("usage: LOAD/L network_json. Bad json");
        return;
    }
    drop_network();
    try {
        tennlab_network net = tennlab_network::from_json(*j, t.size() > 1 ? t[1] : "<stdin>");
        proc_->load_network(net);
        for (const auto& node : net.nodes) proc_->track_neuron_events(node.id);
        set_network(std::move(net));
    } catch (const std::exception& e) {
        report(e, "Unknown error when loading a network");
    }
}

void tool_session::cmd_make(const tokens& t) {
    if (t.size() < 2) {
        print("usage: MAKE proc_name processor_params_json");
        return;
    }
    proc_.reset();
    const auto j = read_json(t, 2);
    if (!j) {
        print("usage: MAKE proc_name processor_params_json. Bad json");
        return;
    }
    try {
        proc_ = make_processor(t[1], *j, "M");
    } catch (const std::exception& e) {
        report(e, "Unknown error when making processor");
    }
}

void tool_session::cmd_emptynet(const tokens& t) {
    if (!need_processor()) return;
    nlohmann::json ad = {{"other", {{"proc_name", proc_->name()}}},
                         {"proc_params", proc_->parameters()}};
    const property_pack pack = proc_->network_properties();
    nlohmann::json j = {{"Properties", pack.to_json()},
                        {"Nodes", nlohmann::json::array()},
                        {"Edges", nlohmann::json::array()},
                        {"Inputs", nlohmann::json::array()},
                        {"Outputs", nlohmann::json::array()},
                        {"Network_Values", nlohmann::json::array()},
                        {"Associated_Data", ad}};
    if (t.size() > 1) {
        std::ofstream file(t[1]);
        if (!file) {
            err_ << t[1] << ": " << std::strerror(errno) << '\n';
            print("");
            return;
        }
        file << compact_json(j) << '\n';
    } else {
        out_ << "{ \"Properties\":\n"
             << indent_lines(pack.pretty_text(), 2) << ",\n \"Nodes\":\n"
             << indent_lines("[]", 2) << ",\n \"Edges\":\n"
             << indent_lines("[]", 2) << ",\n \"Inputs\": []"
             << ",\n \"Outputs\": []"
             << ",\n \"Network_Values\": []"
             << ",\n \"Associated_Data\":\n"
             << indent_lines(pretty_json(ad), 2) << "}\n";
    }
    set_network(tennlab_network::from_json(j, "EMPTYNET"));
}

void tool_session::cmd_params(const tokens& t) {
    if (!need_processor()) return;
    const nlohmann::json params = proc_->parameters();
    if (t.size() > 1) {
        std::ofstream file(t[1]);
        if (!file) {
            err_ << t[1] << ": " << std::strerror(errno) << '\n';
            return;
        }
        file << compact_json(params) << '\n';
        return;
    }
    print(indented_json(params, 2));
}

void tool_session::cmd_spikes(const tokens& t, bool normalized) {
    if (!need_loaded()) return;
    if (t.size() < 4 || (t.size() - 1) % 3 != 0) {
        print(std::string("usage: ") + (normalized ? "AS" : "ASV") +
              " node_id spike_time spike_value node_id1 spike_time1 spike_value1 ...");
        return;
    }
    for (std::size_t i = 1; i + 2 < t.size(); i += 3) {
        int id = 0;
        double time = 0, value = 0;
        if (!scan_int(t[i], id) || !scan_double(t[i + 1], time) || !scan_double(t[i + 2], value)) {
            print("Invalid spike [ " + t[i] + "," + t[i + 1] + "," + t[i + 2] + "]\n");
            continue;
        }
        if (normalized && (value < -1 || value > 1)) {
            print("spike val must be >= -1 and <= 1");
            continue;
        }
        if (time < 0) {
            print("spike time must be > 0");
            continue;
        }
        const auto uid = static_cast<node_id>(id);
        if (node_index_.count(uid) == 0) {
            print(strfmt("Node %u does not exist.", uid));
            continue;
        }
        if (!is_input(uid)) {
            print(strfmt("node %d is not an input node", id));
            continue;
        }
        try {
            proc_->apply_spike({uid, time, value}, normalized);
            applied_.push_back({id, time, value});
        } catch (const tennlab_error& e) {
            print(e.reference_message().empty() ? e.what() : e.reference_message());
        }
    }
}

void tool_session::cmd_raster_spikes(const tokens& t) {
    if (!need_loaded()) return;
    if (t.size() != 3) {
        print("usage: ASR node_id spike_raster_string");
        return;
    }
    if (t[2].find_first_not_of("01") != std::string::npos) {
        print("ASR -- Spike raster string must be only 0's and 1's.");
        return;
    }
    int id = 0;
    if (!scan_int(t[1], id)) {
        print("Bad neuron id: " + t[1]);
        return;
    }
    const auto uid = static_cast<node_id>(id);
    if (node_index_.count(uid) == 0) {
        print(strfmt("Node %u does not exist.", uid));
        return;
    }
    if (!is_input(uid)) {
        print(strfmt("node %d is not an input node", id));
        return;
    }
    for (std::size_t i = 0; i < t[2].size(); ++i)
        if (t[2][i] == '1') proc_->apply_spike({uid, static_cast<double>(i), 1.0}, true);
}

void tool_session::cmd_run(const tokens& t) {
    if (!need_loaded()) return;
    double duration = 0;
    if (t.size() != 2 || !scan_double(t[1], duration) || duration < 0) {
        print("usage: RUN sim_time. sim_time >= 0");
        return;
    }
    proc_->run(duration);
    applied_.clear();
}

}  // namespace volley::hw::detail
