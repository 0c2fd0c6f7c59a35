#pragma once
// The pipeline's temporal stage (docs/demo.md, "The temporal stage"): the converted CNN's
// output, frame by frame, into networks on the DANNA 2 model that answer questions about a
// sequence of Fashion-MNIST images (docs/temporal.md). Per question: a short EONS run on the
// CNN's training features from the network EONS designed from random networks (cached in the
// library, temporal/evolved_networks.hpp; or from the hand-built network with seed_hand_built),
// then test accuracy with the CNN's and with oracle features, the ideal bound, the hand-built
// network and a GRU beside it.

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_conversion.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace volley::pipeline {

struct temporal_options {
    std::int64_t timesteps = 32;         ///< T of the CNN front end per frame
    std::size_t train_sequences = 300;   ///< per question, from training images
    std::size_t test_sequences = 300;    ///< per question, from test images
    int population = 40, generations = 8;
    int threads = 1;
    std::uint64_t seed = 1;
    bool seed_hand_built = false;        ///< start EONS from the hand-built networks, not the evolved ones
    std::filesystem::path out_dir;       ///< temporal_*.json, fitness_*.svg, temporal_layout.svg, temporal_raster.svg
    std::function<void(const std::string&)> log;  ///< progress lines; may be empty
};

/// One question's figures (accuracies are fractions on the test sequences).
struct temporal_row {
    std::string question;
    std::string started_from;    ///< "evolved from random networks" or "hand-built"
    double accuracy = 0;         ///< evolved network, CNN features, on danna2
    double oracle_accuracy = 0;  ///< evolved network, true labels as features
    double ideal_bound = 0;      ///< exact temporal logic on the CNN's per-frame predictions
    double hand_built = 0;       ///< the hand-built network, CNN features
    double gru = 0;              ///< the GRU, CNN features
    std::size_t gru_parameters = 0;
    std::int64_t neurons = 0, synapses = 0;  ///< of the evolved network
    std::int64_t hand_built_neurons = 0, hand_built_synapses = 0;  ///< of the hand-built network (the reference)
    double cycles = 0, events = 0, energy_j = 0;  ///< per sequence on danna2
    std::int64_t grid_elements = 0;     ///< DANNA grid elements used after place and route (0: not placed)
    std::size_t grid_differences = 0;   ///< test sequences answered differently on the grid
    bool grid_placed = false;
    std::filesystem::path network_file; ///< the evolved network as TENNLab JSON (empty: out_dir not given)
};

struct temporal_result {
    std::vector<temporal_row> rows;
    double features_s = 0;        ///< wall time of the CNN front end
    std::size_t feature_images = 0;
    double sequences_per_s = 0;   ///< danna2 runs of the evolved networks
    double evaluations_per_s = 0; ///< EONS network evaluations
    std::vector<std::filesystem::path> outputs;
};

/// Runs the stage; throws volley::error on bad input.
temporal_result run_temporal_stage(const convert::converted_snn& net, const convert::image_dataset& train,
                                       const convert::image_dataset& test, const temporal_options& options);

}  // namespace volley::pipeline
