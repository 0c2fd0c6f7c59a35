#pragma once
// The state and commands of the processor_tool interpreter (RISP.md section f).

#include <volley/hw/processor_tool.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace volley::hw::detail {

using tokens = std::vector<std::string>;

/// printf into a std::string.
std::string strfmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// sscanf-like prefix parsing: a numeric prefix is accepted and the rest ignored.
bool scan_int(const std::string& token, int& value);
bool scan_uint(const std::string& token, unsigned& value);
bool scan_double(const std::string& token, double& value);

class tool_session {
  public:
    tool_session(std::istream& in, std::ostream& out, std::ostream& err,
                 processor_factory factory = {});

    /// Executes one tokenised command (first token already upper-cased); false on `Q`.
    bool execute(const tokens& t);

  private:
    void print(const std::string& line);
    std::unique_ptr<neuroprocessor> make_processor(const std::string& name,
                                                   const nlohmann::json& params,
                                                   const std::string& object);
    risp_processor* need_risp(const char* command);
    bool need_loaded();
    bool need_processor();
    std::optional<nlohmann::json> read_json(const tokens& t, std::size_t file_pos);
    void set_network(tennlab_network net);
    void drop_network();
    void report(const std::exception& e, const char* generic);
    std::string name_of(node_id id) const;
    bool is_input(node_id id) const { return input_index_.count(id) != 0; }
    bool is_output(node_id id) const { return output_index_.count(id) != 0; }

    void cmd_make_load(const tokens& t);
    void cmd_load(const tokens& t);
    void cmd_make(const tokens& t);
    void cmd_emptynet(const tokens& t);
    void cmd_params(const tokens& t);
    void cmd_spikes(const tokens& t, bool normalized);
    void cmd_raster_spikes(const tokens& t);
    void cmd_run(const tokens& t);
    void cmd_charges(const tokens& t);
    void cmd_outputs(const tokens& t, char what);
    void cmd_raster(const tokens& t);
    void cmd_neuron_table(const tokens& t, char what);
    void cmd_counters(bool fires);
    void cmd_synapses(const tokens& t);
    void cmd_info();
    void cmd_pending_spikes();

    std::istream& in_;
    std::ostream& out_;
    std::ostream& err_;
    processor_factory factory_;
    std::unique_ptr<neuroprocessor> proc_;
    std::optional<tennlab_network> net_;
    std::map<node_id, std::size_t> node_index_;  // id -> position in net_->nodes
    std::map<node_id, int> input_index_, output_index_;
    int width_ = 0;
    struct applied_spike {
        int id;
        double time, value;
    };
    std::vector<applied_spike> applied_;
    std::int64_t fire_total_ = 0, integrate_total_ = 0;
};

}  // namespace volley::hw::detail
