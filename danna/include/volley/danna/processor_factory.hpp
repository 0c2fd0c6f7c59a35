#pragma once
// Making DANNA processors by model name, for `volley danna --model` and the processor_tool
// command language.

#include <volley/danna/danna2_params.hpp>
#include <volley/danna/grid_params.hpp>
#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/processor_tool.hpp>

#include <memory>
#include <string>

namespace volley::danna {

/// Makes a processor for `model` ("danna" or "danna2").
///
/// - `proc_name` equal to the model: `proc_params` are the model's parameters (danna2_params,
///   or grid parameters for danna, where "preset" picks the grid).
/// - `proc_name` "risp": a TENNLab RISP network on a DANNA model. The model keeps its defaults
///   except threshold_inclusive and spike_value_factor, taken from the RISP parameters, and
///   a default refractory period of 0 (RISP has none). A warning lists what RISP features the
///   model does not have (leak modes, min_potential, noise, fire_like_ravens).
/// - any other name: tennlab_error "Processor::make() called with a name (X) not equal to MODEL".
/// `grid_preset_name` is the grid used for danna when the parameters do not name one.
std::unique_ptr<hw::neuroprocessor> make_processor(const std::string& model,
                                                   const std::string& proc_name,
                                                   const nlohmann::json& proc_params,
                                                   std::vector<std::string>& warnings,
                                                   const std::string& grid_preset_name = "tiny");

/// The parameters make_processor gives danna2 for a network of `proc_name` ("danna2" or "risp")
/// with `proc_params`: the processor of a network file that names its processor (TENNLab's
/// Associated_Data.other.proc_name and proc_params), whichever way it is run.
danna2_params danna2_params_for(const std::string& proc_name, const nlohmann::json& proc_params,
                                std::vector<std::string>& warnings);

/// The parameters make_processor gives the DANNA grid for a network of `proc_name` ("danna" or
/// "risp") with `proc_params`.
grid_params grid_params_for(const std::string& proc_name, const nlohmann::json& proc_params,
                            std::vector<std::string>& warnings, const std::string& grid_preset_name = "tiny");

/// A processor_tool factory for `model`.
hw::processor_factory tool_factory(const std::string& model,
                                   const std::string& grid_preset_name = "tiny");

}  // namespace volley::danna
