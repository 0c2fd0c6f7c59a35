// The read-out commands of the processor_tool interpreter (RISP.md f.3 and Appendix D).

#include "tool_session.hpp"

#include <volley/hw/tennlab_error.hpp>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <set>

namespace volley::hw::detail {

void tool_session::cmd_charges(const tokens& t) {
    if (!need_loaded()) return;
    std::vector<node_id> wanted;
    for (std::size_t i = 1; i < t.size(); ++i) {
        unsigned id = 0;
        if (!scan_uint(t[i], id)) {
            print("Bad node specification - " + t[i]);
            return;
        }
        if (node_index_.count(id) == 0) {
            print(t[i] + " is not a node in the network");
            return;
        }
        wanted.push_back(id);
    }
    const std::vector<double> charges = proc_->neuron_charges();
    const std::vector<node_id> ids = proc_->neuron_ids();
    std::sort(wanted.begin(), wanted.end());
    // One cursor over the sorted ids: a repeated id stalls it, as in the reference.
    std::size_t cursor = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!wanted.empty()) {
            if (cursor >= wanted.size() || wanted[cursor] != ids[i]) continue;
            ++cursor;
        }
        print(strfmt("Node %*s charge: %lg", width_, name_of(ids[i]).c_str(), charges[i]));
    }
}

void tool_session::cmd_outputs(const tokens& t, char what) {
    if (!need_loaded()) return;
    auto line = [&](node_id id, int index, bool listed) {
        const std::string name = name_of(id);
        if (what == 'C')
            return strfmt("node %s spike counts: %d", name.c_str(), proc_->output_count(index));
        if (what == 'L')
            return strfmt("node %s last fire time: %.1lf", name.c_str(),
                          proc_->output_last_fire(index));
        std::string s = "node " + name + " spike times:" + (listed ? " " : "");
        for (double time : proc_->output_vector(index))
            s += listed ? strfmt("%.1lf ", time) : strfmt(" %.1lf", time);
        return s;
    };
    if (t.size() == 1) {
        if (what == 'T' && net_->outputs.empty()) {
            print("Processor error -- p->output_vectors returned a vector of size zero");
            return;
        }
        for (std::size_t i = 0; i < net_->outputs.size(); ++i)
            print(line(net_->outputs[i], static_cast<int>(i), false));
        return;
    }
    for (std::size_t i = 1; i < t.size(); ++i) {
        int id = 0;
        if (!scan_int(t[i], id)) {
            print(t[i] + " is not a valid node id");
            continue;
        }
        if (id < 0) {
            print("node_id must > 0");
            continue;
        }
        const auto uid = static_cast<node_id>(id);
        if (node_index_.count(uid) == 0) {
            print(strfmt("Node %u does not exist.", uid));
            continue;
        }
        if (!is_output(uid)) {
            print(strfmt("node %d is not an input node", id));
            continue;
        }
        print(line(uid, output_index_.at(uid), true));
    }
}

void tool_session::cmd_raster(const tokens& t) {
    bool show_hidden = true;
    std::size_t first = 1;
    if (t.size() > 1 && (t[1] == "T" || t[1] == "F")) {
        show_hidden = t[1] == "T";
        first = 2;
    }
    std::set<node_id> wanted;
    for (std::size_t i = first; i < t.size(); ++i)
        wanted.insert(static_cast<node_id>(std::atoi(t[i].c_str())));
    if (!need_loaded()) return;
    const auto times = proc_->neuron_vectors();
    const std::vector<node_id> ids = proc_->neuron_ids();
    std::size_t length = 0;
    for (const auto& v : times)
        for (double time : v) length = std::max(length, static_cast<std::size_t>(time) + 1);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!wanted.empty() && wanted.count(ids[i]) == 0) continue;
        const char* kind = is_input(ids[i]) ? "INPUT " : is_output(ids[i]) ? "OUTPUT" : "HIDDEN";
        if (!show_hidden && kind[0] == 'H') continue;
        std::string raster(length, '0');
        for (double time : times[i]) raster[static_cast<std::size_t>(time)] = '1';
        print(strfmt("%-*s %s : %s", width_, name_of(ids[i]).c_str(), kind, raster.c_str()));
    }
}

void tool_session::cmd_neuron_table(const tokens& t, char what) {
    if (!need_loaded()) return;
    if (t.size() != 2 || (t[1] != "T" && t[1] != "F")) {
        if (what == 'C')
            print("usage: NC show_nonfiring - Fire counts for all neurons. show_nonfiring=T/F");
        else if (what == 'L')
            print(
                "usage: NLF show_nonfiring - Last fire times for all neurons. "
                "show_nonfiring=T/F");
        else
            print("usage: NT show_nonfiring - Fire times for all neurons. show_nonfiring=T/F");
        return;
    }
    const bool all = t[1] == "T";
    const std::vector<node_id> ids = proc_->neuron_ids();
    const auto counts = proc_->neuron_counts();
    const auto last = proc_->neuron_last_fires();
    const auto times = proc_->neuron_vectors();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string name = name_of(ids[i]);
        if (what == 'C') {
            if (all || counts[i] != 0)
                print(strfmt("Node %*s fire count: %d", width_, name.c_str(), counts[i]));
        } else if (what == 'L') {
            if (all || last[i] != -1)
                print(strfmt("Node %*s last fire: %.1lf", width_, name.c_str(), last[i]));
        } else if (all || !times[i].empty()) {
            std::string s = strfmt("Node %2u fire times:", ids[i]);
            for (double time : times[i]) s += strfmt(" %.1lf", time);
            print(s);
        }
    }
}

void tool_session::cmd_counters(bool fires) {
    if (!need_loaded()) return;
    auto* risp = need_risp(fires ? "TNC" : "TNA");
    if (risp == nullptr) return;
    const risp_counters c = risp->take_counters();
    fire_total_ += c.fires;
    integrate_total_ += c.integrated;
    std::int64_t& total = fires ? fire_total_ : integrate_total_;
    print(strfmt("%lld", static_cast<long long>(total)));
    total = 0;
}

void tool_session::cmd_synapses(const tokens& t) {
    if (!need_loaded()) return;
    unsigned from = 0, to = 0;
    const bool one = t.size() == 3 && scan_uint(t[1], from) && scan_uint(t[2], to);
    auto* risp = need_risp("SW");
    if (risp == nullptr) return;
    auto syns = risp->synapses();
    std::stable_sort(syns.begin(), syns.end(),
                     [](const auto& a, const auto& b) { return a.from < b.from; });
    for (const auto& s : syns)
        if (!one || (s.from == from && s.to == to))
            print(strfmt("  %4u -> %4u : %7.4lf", s.from, s.to, s.weight));
}

void tool_session::cmd_info() {
    if (!need_loaded()) return;
    std::string in = "Input nodes:  ", hidden = "Hidden nodes: ", out = "Output nodes: ";
    for (node_id id : net_->inputs) in += name_of(id) + " ";
    for (const auto& [id, index] : node_index_)
        if (!is_input(id) && !is_output(id)) hidden += name_of(id) + " ";
    for (node_id id : net_->outputs) out += name_of(id) + " ";
    print(in);
    print(hidden);
    print(out);
    print("");
}

void tool_session::cmd_pending_spikes() {
    if (!need_loaded()) return;
    for (const auto& s : applied_) print(strfmt("Spike: [%d,%lg,%lg]", s.id, s.time, s.value));
}

}  // namespace volley::hw::detail
