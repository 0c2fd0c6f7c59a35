#include <volley/hw/processor_tool.hpp>
#include <volley/hw/tennlab_error.hpp>

#include "tool_session.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>

namespace volley::hw {

namespace detail {

bool tool_session::execute(const tokens& t) {
    const std::string& c = t[0];
    try {
        if (c == "Q") return false;
        if (c == "?")
            out_ << processor_tool::help_text();
        else if (c == "ML")
            cmd_make_load(t);
        else if (c == "L" || c == "LOAD")
            cmd_load(t);
        else if (c == "M" || c == "MAKE")
            cmd_make(t);
        else if (c == "EMPTYNET")
            cmd_emptynet(t);
        else if (c == "PARAMS")
            cmd_params(t);
        else if (c == "NAME") {
            if (need_processor()) print(proc_->name());
        } else if (c == "NP" || c == "PPACK") {
            if (need_processor()) print(proc_->network_properties().pretty_text());
        } else if (c == "AS")
            cmd_spikes(t, true);
        else if (c == "ASV")
            cmd_spikes(t, false);
        else if (c == "ASR")
            cmd_raster_spikes(t);
        else if (c == "RUN")
            cmd_run(t);
        else if (c == "GT") {
            if (need_loaded())
                print(strfmt("time: %.1lf", static_cast<double>(proc_->total_steps())));
        } else if (c == "CA" || c == "CLEAR-A") {
            if (need_loaded()) proc_->clear_activity();
        } else if (c == "C" || c == "CLEAR") {
            if (need_loaded()) {
                proc_->clear();
                drop_network();
            }
        } else if (c == "NCH")
            cmd_charges(t);
        else if (c == "OC")
            cmd_outputs(t, 'C');
        else if (c == "OT" || c == "OV")
            cmd_outputs(t, 'T');
        else if (c == "OLF")
            cmd_outputs(t, 'L');
        else if (c == "GSR")
            cmd_raster(t);
        else if (c == "NC")
            cmd_neuron_table(t, 'C');
        else if (c == "NLF")
            cmd_neuron_table(t, 'L');
        else if (c == "NT" || c == "NV")
            cmd_neuron_table(t, 'T');
        else if (c == "TNC")
            cmd_counters(true);
        else if (c == "TNA")
            cmd_counters(false);
        else if (c == "SW")
            cmd_synapses(t);
        else if (c == "INFO")
            cmd_info();
        else if (c == "PS")
            cmd_pending_spikes();
        else
            print("Invalid command " + c + ".  Use '?' to print a list of commands.");
    } catch (const tennlab_error& e) {
        print(e.reference_message().empty() ? e.what() : e.reference_message());
    } catch (const volley::error& e) {
        print(e.what());
    }
    return true;
}

}  // namespace detail

processor_tool::processor_tool(std::istream& in, std::ostream& out, std::ostream& err,
                               std::string prompt, processor_factory factory)
    : in_(in),
      out_(out),
      prompt_(std::move(prompt)),
      session_(std::make_unique<detail::tool_session>(in, out, err, std::move(factory))) {}

processor_tool::~processor_tool() = default;

bool processor_tool::execute_line(const std::string& line) {
    detail::tokens t;
    std::istringstream words(line);
    for (std::string w; words >> w;) t.push_back(w);
    if (t.empty() || t[0][0] == '#') return true;
    for (char& ch : t[0])
        if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
    return session_->execute(t);
}

int processor_tool::run() {
    std::string line;
    for (;;) {
        if (!prompt_.empty()) out_ << prompt_ << ' ' << std::flush;
        if (!std::getline(in_, line)) break;
        if (!execute_line(line)) break;
    }
    out_.flush();
    return 0;
}

std::string processor_tool::help_text(const std::string& processor, const std::string& make_name) {
    std::string make = "M/MAKE " + make_name + " [params]";
    make.resize(std::max<std::size_t>(make.size() + 1, 25), ' ');
    return "This is a processor tool program for " + processor + ". The commands are:\n\n" +
           "ML [network_json]        - Make a processor from the network's proc_params and load it\n" + make +
           "- Make a processor from a parameter JSON file (or stdin)\n" + R"(L/LOAD [network_json]    - Load a network on the current processor
EMPTYNET [file]          - Make an empty network with the processor's properties
PARAMS [file]            - Print the processor parameters as JSON
NP/PPACK                 - Print the processor's property pack
NAME                     - Print the processor's name

AS id time value ...     - Apply normalized spikes (value in [0,1])
ASV id time value ...    - Apply spikes with raw values
ASR id raster            - Apply a normalized spike of value 1 at each 1 in raster
RUN steps                - Run the processor for the given number of timesteps
GT                       - Print the time since load or the last CA
CA/CLEAR-A               - Clear all activity (charges, pending events, fire records)
C/CLEAR                  - Unload the network

NCH [id ...]             - Neuron charges
OC [id ...]              - Output fire counts of the last run
OT/OV [id ...]           - Output fire times of the last run
OLF [id ...]             - Output last fire times of the last run
GSR [T|F] [id ...]       - Spike raster of the last run (F hides hidden neurons)
NC T|F                   - Fire counts of all neurons (F: non-zero only)
NLF T|F                  - Last fire times of all neurons (F: firing only)
NT/NV T|F                - Fire times of all neurons (F: firing only)
TNC / TNA                - Total fires / integrated events since last asked
SW [from to]             - Synapse weights
INFO                     - Input, hidden and output nodes
PS                       - Spikes applied since the last RUN
?                        - Print this list
Q                        - Quit
)";
}

}  // namespace volley::hw
