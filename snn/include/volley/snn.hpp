#pragma once
// Volley's spiking-network engine: the whole public API in one include.

#include <volley/error.hpp>
#include <volley/snn/connectors.hpp>
#include <volley/snn/context.hpp>
#include <volley/snn/features.hpp>
#include <volley/snn/network.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/neuron_models.hpp>
#include <volley/snn/plasticity.hpp>
#include <volley/snn/raster_plot.hpp>
#include <volley/snn/recorders.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/spike_checksum.hpp>
#include <volley/snn/spike_csv.hpp>
#include <volley/snn/standard_networks.hpp>
#include <volley/snn/stimuli.hpp>
#include <volley/snn/types.hpp>
#include <volley/snn/value.hpp>
#include <volley/snn/weights_file.hpp>
