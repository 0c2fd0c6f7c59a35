// The pipeline's temporal stage (see temporal_stage.hpp).

#include <volley/pipeline/temporal_stage.hpp>
#include <volley/pipeline/image_raster.hpp>
#include <volley/pipeline/fitness_plot.hpp>

#include <volley/convert/sequence_classifier.hpp>
#include <volley/danna/layout_svg.hpp>
#include <volley/danna/place_and_route.hpp>
#include <volley/error.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/eons/evolution.hpp>
#include <volley/snn/raster_plot.hpp>
#include <volley/temporal/evolved_networks.hpp>
#include <volley/temporal/fitness.hpp>
#include <volley/temporal/hand_networks.hpp>
#include <volley/temporal/ideal_bound.hpp>
#include <volley/temporal/sequence_runner.hpp>

#include <algorithm>
#include <chrono>
#include <memory>

namespace volley::pipeline {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// The GRU's input: each frame's evidence divided by the frame's largest (one-hot for oracle).
convert::sequence_tensor<float> gru_input(const std::vector<temporal::sequence>& seqs, const temporal::feature_table& f,
                                          int frames) {
    convert::sequence_tensor<float> x({seqs.size(), static_cast<std::size_t>(frames), f.classes});
    for (std::size_t i = 0; i < seqs.size(); ++i)
        for (int k = 0; k < frames; ++k) {
            const auto row = f.row(seqs[i].images[static_cast<std::size_t>(k)]);
            const float top = *std::max_element(row.begin(), row.end());
            for (std::size_t c = 0; c < f.classes; ++c)
                x.values[(i * static_cast<std::size_t>(frames) + static_cast<std::size_t>(k)) * f.classes + c] =
                    top > 0 ? row[c] / top : 0.0f;
        }
    return x;
}

/// Targets laid out as the classifier wants them: one per sequence, or per frame (frame 0 unscored).
std::vector<float> gru_targets(const std::vector<temporal::sequence>& seqs, const temporal::task_spec& task) {
    std::vector<float> t;
    for (const auto& s : seqs) {
        if (task.kind != temporal::question::change) {
            t.push_back(s.answers.front());
            continue;
        }
        t.push_back(0);
        for (const auto a : s.answers) t.push_back(a);
    }
    return t;
}

/// The GRU's test accuracy and size for `task`, trained on the training features.
std::pair<double, std::size_t> gru_accuracy(const temporal::task_spec& task, const std::vector<temporal::sequence>& train,
                                            const temporal::feature_table& train_f, const std::vector<temporal::sequence>& test,
                                            const temporal::feature_table& test_f, const temporal_options& o) {
    convert::sequence_network_config cfg;
    cfg.input_features = train_f.classes;
    cfg.steps = static_cast<std::size_t>(task.frames);
    if (task.kind == temporal::question::change) {
        cfg.answer = convert::sequence_answer::per_frame;
        cfg.scored_frames = convert::scored_frames_from(cfg.steps, 1);
    }
    cfg.init_seed = o.seed;
    convert::sequence_classifier gru(cfg);
    convert::sequence_training_options t;
    t.epochs = 30;
    t.batch_size = 16;
    t.seed = o.seed;
    t.threads = o.threads;
    gru.train(gru_input(train, train_f, task.frames), gru_targets(train, task), t);
    return {gru.accuracy(gru_input(test, test_f, task.frames), gru_targets(test, task), o.threads), gru.parameter_count()};
}

/// Every neuron's fires of `net` on one sequence: inputs, hidden neurons, output, with the
/// cycle of each fire as its time.
std::vector<snn::raster_population> sequence_fires(const temporal::processor_spec& spec, const hw::tennlab_network& net,
                                                   const temporal::task_spec& task, const temporal::encoding_options& enc,
                                                   const temporal::decoding_options& dec,
                                                   const temporal::encoded_sequence& seq) {
    auto proc = spec.make();
    proc->load_network(net);
    for (const auto& n : net.nodes) proc->track_neuron_events(n.id);
    for (const auto& e : seq.events)
        proc->apply_spike({.id = net.inputs[static_cast<std::size_t>(e.input)], .time = static_cast<double>(e.cycle), .value = 1});
    proc->run(static_cast<double>(dec.run_cycles(task, enc.cycles_per_frame)));
    const auto ids = proc->neuron_ids();
    const auto fires = proc->neuron_vectors();
    std::vector<snn::raster_population> pops(3);
    pops[0].name = "inputs (classes)";
    pops[1].name = "hidden";
    pops[2].name = "output";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const bool input = std::find(net.inputs.begin(), net.inputs.end(), ids[i]) != net.inputs.end();
        const bool output = std::find(net.outputs.begin(), net.outputs.end(), ids[i]) != net.outputs.end();
        auto& p = pops[input ? 0 : output ? 2 : 1];
        for (const double t : fires[i]) p.node_ids.push_back(p.size), p.times_ms.push_back(t);
        ++p.size;
    }
    return pops;
}

/// "3 7 0 8": the numbers of `values`, space-separated.
std::string joined(const std::vector<std::uint8_t>& values) {
    std::string out;
    for (const auto v : values) out += (out.empty() ? "" : " ") + std::to_string(v);
    return out;
}

/// "yes", "no", or for several answers "n y y n".
std::string yes_no(const std::vector<std::uint8_t>& answers) {
    if (answers.size() == 1) return answers.front() ? "yes" : "no";
    std::string out;
    for (const auto a : answers) out += std::string(out.empty() ? "" : " ") + (a ? "y" : "n");
    return out;
}

void write_sequence_raster(const std::filesystem::path& file, std::vector<snn::raster_population> pops,
                           const temporal::task_spec& task, const temporal::encoding_options& enc,
                           const temporal::decoding_options& dec, const std::string& title) {
    snn::raster_plot_options opt;
    opt.title = title;
    opt.time_unit = "cycle";
    opt.t_stop_ms = static_cast<double>(dec.run_cycles(task, enc.cycles_per_frame));
    opt.rate_bin_ms = enc.cycles_per_frame;
    snn::write_raster_svg(file, pops, opt);
}

/// One sequence through the whole stack on one time axis counted in frames: each frame's image
/// through the CNN's spiking layers (its T steps span one frame), then the DANNA network's fires
/// on the sequence (a frame's cycles_per_frame cycles span one frame).
void write_stack_raster(const std::filesystem::path& file, const convert::converted_snn& net,
                        const convert::image_dataset& images, const temporal::sequence& seq,
                        std::vector<snn::raster_population> danna_pops, const temporal::task_spec& task,
                        const temporal::encoding_options& enc, const temporal::decoding_options& dec,
                        const temporal_options& o) {
    const auto T = static_cast<double>(o.timesteps);
    // At most 20 rows a layer: the DANNA network's rows then take about a third of the height.
    constexpr std::uint64_t rows = 20;
    auto pops = layer_rows(net, rows, "CNN ");
    for (std::size_t f = 0; f < seq.images.size(); ++f)
        add_layer_spikes(pops, net,
                         record_image_spikes(net, {images.image(seq.images[f]), images.image_size()}, o.timesteps, o.seed,
                                             convert::readout_rule::spike_count),
                         rows, static_cast<double>(f), 1 / T);
    const double cycles = static_cast<double>(enc.cycles_per_frame);
    for (auto& p : danna_pops) {
        for (auto& t : p.times_ms) t /= cycles;
        p.name = "DANNA " + p.name;
        pops.push_back(std::move(p));
    }
    snn::raster_plot_options opt;
    opt.title = "one '" + temporal::to_string(task.kind) + "' test sequence: CNN layers (" + std::to_string(o.timesteps) +
                " steps a frame) and the evolved network on danna2 (" + std::to_string(enc.cycles_per_frame) +
                " cycles a frame)";
    opt.time_unit = "frame";
    opt.t_start_ms = 0;
    opt.t_stop_ms = std::max(static_cast<double>(seq.images.size()),
                             static_cast<double>(dec.run_cycles(task, enc.cycles_per_frame)) / cycles);
    opt.rate_bin_ms = 1;
    opt.max_points = 80000;
    snn::write_raster_svg(file, pops, opt);
}

}  // namespace

temporal_result run_temporal_stage(const convert::converted_snn& net, const convert::image_dataset& train,
                                       const convert::image_dataset& test, const temporal_options& o) {
    temporal_result r;
    temporal::encoding_options enc;  // winner coding: one spike for the frame's predicted class
    temporal::processor_spec proc;
    proc.kind = "danna2";
    proc.proc_params = temporal::temporal_risp_params(enc);
    temporal::processor_spec grid = proc;
    grid.kind = "danna";
    const temporal::question questions[] = {temporal::question::order, temporal::question::change, temporal::question::count};

    // The sequences of every question, then the CNN's features of every image they show, once.
    std::vector<temporal::task_spec> tasks;
    std::vector<std::vector<temporal::sequence>> train_seqs, test_seqs;
    std::vector<std::uint32_t> train_images, test_images;
    for (const auto q : questions) {
        temporal::task_spec task;
        task.kind = q;
        tasks.push_back(task);
        train_seqs.push_back(temporal::generate_sequences(task, train.labels, {.count = o.train_sequences, .seed = o.seed}));
        test_seqs.push_back(temporal::generate_sequences(task, test.labels, {.count = o.test_sequences, .seed = o.seed + 1}));
        for (auto i : temporal::images_used(train_seqs.back())) train_images.push_back(i);
        for (auto i : temporal::images_used(test_seqs.back())) test_images.push_back(i);
    }
    if (o.log) o.log("temporal stage: CNN features of " + std::to_string(train_images.size() + test_images.size()) +
                     " frames at T = " + std::to_string(o.timesteps));
    const auto t_features = clock_type::now();
    temporal::cnn_feature_options fo;
    fo.timesteps = o.timesteps;
    fo.threads = o.threads;
    fo.seed = o.seed;
    const auto train_f = temporal::cnn_features(net, train, train_images, fo);
    const auto test_f = temporal::cnn_features(net, test, test_images, fo);
    r.features_s = seconds_since(t_features);
    const auto oracle_test = temporal::oracle_features(test.labels);
    std::sort(train_images.begin(), train_images.end());
    std::sort(test_images.begin(), test_images.end());
    r.feature_images = static_cast<std::size_t>(std::unique(train_images.begin(), train_images.end()) - train_images.begin()) +
                       static_cast<std::size_t>(std::unique(test_images.begin(), test_images.end()) - test_images.begin());

    std::int64_t evaluations = 0;
    double eval_s = 0, run_s = 0;
    std::size_t runs = 0;
    bool layout_written = false;
    for (std::size_t q = 0; q < tasks.size(); ++q) {
        const auto& task = tasks[q];
        temporal_row row;
        row.question = temporal::to_string(task.kind);
        if (o.log) o.log("temporal stage: " + row.question + ": EONS on danna2");
        auto problem = std::make_shared<temporal::training_problem>();
        problem->task = task;
        problem->encoding = enc;
        // The hand-built seed's delays are ones the grid can route, so that the evolved network
        // can be placed there too.
        const auto timing = temporal::hand_built_timing(task, enc, grid);
        const auto dec = temporal::hand_built_decoding(timing);
        problem->decoding = dec;
        problem->processor = proc;
        problem->sequences = temporal::encode_sequences(train_seqs[q], train_f, enc);
        const auto hand = temporal::hand_built_network(task, enc, proc, timing);
        // EONS starts from the network it designed from random networks (cached in the library),
        // or, when asked, from the hand-built one.
        const auto start = o.seed_hand_built ? hand : temporal::evolved_network(task, enc);
        row.started_from = o.seed_hand_built ? "hand-built" : "evolved from random networks";
        eons::eons_config config;
        config.population = o.population;
        config.num_best = std::min(4, o.population - 1);
        config.max_nodes = 64;
        config.size_penalty = 1e-5;  // among equally accurate networks, prefer the smaller
        auto state = eons::start_evolution(config, temporal::make_network_template(task, proc), o.seed, {start});
        eons::evolve_options eo;
        eo.generations = o.generations;
        eo.threads = o.threads;
        eo.progress = [&](const eons::generation_record& g) {
            evaluations += g.evaluations;
            eval_s += g.seconds;
            return true;
        };
        eons::evolve(state, temporal::make_fitness(problem), eo);
        if (!o.out_dir.empty()) {  // the stage's result, for `volley danna run` or a later stage
            row.network_file = o.out_dir / ("temporal_" + row.question + ".json");
            hw::save_tennlab_network(state.best, row.network_file.string());
            r.outputs.push_back(row.network_file);
        }

        const auto test_real = temporal::encode_sequences(test_seqs[q], test_f, enc);
        const auto test_oracle = temporal::encode_sequences(test_seqs[q], oracle_test, enc);
        const auto t_run = clock_type::now();
        const auto real = temporal::evaluate_network(proc, state.best, task, enc, dec, test_real);
        run_s += seconds_since(t_run);
        runs += test_real.size();
        row.accuracy = real.accuracy;
        row.neurons = real.neurons;
        row.synapses = real.synapses;
        row.cycles = real.mean_cycles;
        row.events = real.mean_events;
        row.energy_j = real.mean_energy_j;
        row.oracle_accuracy = temporal::evaluate_network(proc, state.best, task, enc, dec, test_oracle).accuracy;
        row.hand_built = temporal::evaluate_network(proc, hand, task, enc, dec, test_real).accuracy;
        row.hand_built_neurons = static_cast<std::int64_t>(hand.nodes.size());
        row.hand_built_synapses = static_cast<std::int64_t>(hand.edges.size());
        row.ideal_bound = temporal::ideal_bound(task, test_seqs[q], test_f).accuracy();
        std::tie(row.gru, row.gru_parameters) = gru_accuracy(task, train_seqs[q], train_f, test_seqs[q], test_f, o);

        // The same network placed and routed on the DANNA grid, run there on the test sequences.
        try {  // placed as the grid processor places it (its default seed)
            const auto placed = danna::place_and_route(danna::from_tennlab(state.best, 0), danna::grid_preset(grid.grid_preset), {});
            for (const auto& [kind, count] : placed.report.elements)
                if (kind != "empty") row.grid_elements += count;
            temporal::sequence_runner on_grid(grid, state.best, task, enc, dec);
            temporal::sequence_runner on_d2(proc, state.best, task, enc, dec);
            for (const auto& s : test_real) row.grid_differences += on_grid.run(s).answers != on_d2.run(s).answers;
            row.grid_placed = true;
            if (!layout_written) {  // the first question whose network the grid places
                layout_written = true;
                const auto layout = o.out_dir / "temporal_layout.svg";
                danna::save_layout_svg(placed.programme, layout.string());
                r.outputs.push_back(layout);
            }
        } catch (const volley::error& e) {
            if (o.log) o.log("temporal stage: " + row.question + " not placed on the grid: " + e.what());
        }
        if (q == 0) {
            auto fires = sequence_fires(proc, state.best, task, enc, dec, test_real.front());
            const auto raster = o.out_dir / "temporal_raster.svg";
            const auto& seq = test_seqs[q].front();
            const auto given = temporal::sequence_runner(proc, state.best, task, enc, dec).run(test_real.front()).answers;
            write_sequence_raster(raster, fires, task, enc, dec,
                                  "evolved '" + row.question + "' network on danna2, test sequence 0: classes " +
                                      joined(seq.labels) + "; truth " + yes_no(seq.answers) + ", answer " + yes_no(given));
            r.outputs.push_back(raster);
            if (!net.input) {  // the CNN's one-image recording takes the constant-current coding
                const auto stack = o.out_dir / "sequence_raster.svg";
                write_stack_raster(stack, net, test, test_seqs[q].front(), std::move(fires), task, enc, dec, o);
                r.outputs.push_back(stack);
            }
        }
        fitness_curve c;
        c.title = "EONS on '" + row.question + "' (danna2, CNN features)";
        c.note = "population " + std::to_string(o.population) + ", from the " +
                 (o.seed_hand_built ? std::string("hand-built network") : std::string("network EONS designed from random ones"));
        for (const auto& g : state.history) c.best.push_back(g.best), c.mean.push_back(g.mean);
        if (!c.best.empty()) {
            const auto plot = o.out_dir / ("fitness_" + row.question + ".svg");
            write_fitness_svg(plot, c);
            r.outputs.push_back(plot);
        }
        r.rows.push_back(row);
    }
    r.sequences_per_s = run_s > 0 ? static_cast<double>(runs) / run_s : 0;
    r.evaluations_per_s = eval_s > 0 ? static_cast<double>(evaluations) / eval_s : 0;
    return r;
}

}  // namespace volley::pipeline
