// `volley demo`: the main job (docs/demo.md), the hybrid pipeline of volley::pipeline with its
// options parsed, its progress shown and its figures printed.

#include "cli_common.hpp"
#include "conversion_cli.hpp"
#include "demo_summary.hpp"

#include <volley/pipeline/pipeline.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

namespace volley::cli {

namespace {

/// What the command line gives beyond pipeline_options.
struct demo_command {
    pipeline::pipeline_options pipeline;
    std::string timesteps = "8,16,32,64,128,256";
    std::string readout = "membrane";
    std::string out_dir = "out/demo", cache_dir, data_dir{convert::default_fashion_mnist_dir};
    bool full = false, json = false, quiet = false;
    int threads = 0;
};

void run_demo(demo_command c) {
    auto& o = c.pipeline;
    o.evaluation.snn.timesteps = parse_timesteps(c.timesteps);
    o.evaluation.snn.readout = convert::parse_readout_rule("--readout", c.readout);
    if (c.full) o.evaluation.images = 0;
    o.temporal.train_sequences = o.temporal.test_sequences;
    o.out_dir = c.out_dir;
    o.cache_dir = c.cache_dir;
    o.data_dir = c.data_dir;
    o.threads = c.threads > 0 ? c.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::FILE* log = c.json ? stderr : stdout;
    const bool bar = !c.quiet && stderr_is_terminal();
    std::mutex bar_mutex;
    pipeline::pipeline_observer obs;
    if (!c.quiet)
        obs.log = [log](const std::string& line) {
            std::fprintf(log, "%s\n", line.c_str());
            std::fflush(log);
        };
    if (bar) {
        obs.training_step = [&o](const convert::training_progress& p) {
            std::fprintf(stderr, "\repoch %zu/%zu: %3.0f%%  loss %.4f  %.0f img/s ", p.epoch, o.training.epochs,
                         100.0 * static_cast<double>(p.step) / static_cast<double>(p.steps_per_epoch), p.mean_loss,
                         p.images_per_s);
        };
        obs.evaluation_progress = [&bar_mutex](std::size_t done, std::size_t count) {
            if (done % 50 != 0 && done != count) return;
            std::lock_guard lock(bar_mutex);
            std::fprintf(stderr, "\r%zu/%zu images", done, count);
            if (done == count) std::fputs("\r\033[K", stderr);
        };
        obs.epoch = [](const convert::epoch_record&) { std::fputs("\r\033[K", stderr); };  // the bar, before the line
    }
    const auto result = pipeline::run_pipeline(o, obs);
    if (!c.json) return print_demo_summary(result);
    auto j = pipeline::to_json(result);
    j["peak_rss_bytes"] = peak_rss_bytes();
    print_json(j);
}

}  // namespace

void register_demo(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand(
        "demo", "The main job: train (or reuse) a CNN, convert it, evaluate the SNN on Fashion-MNIST, write plots");
    auto c = std::make_shared<demo_command>();
    auto& o = c->pipeline;
    cmd->add_option("--out,--out-dir", c->out_dir, "Output folder")->capture_default_str();
    cmd->add_option("--cache", c->cache_dir, "Model cache folder (default: OUT/cache)");
    cmd->add_option("--data-dir", c->data_dir, "Directory of the Fashion-MNIST IDX files")->capture_default_str();
    cmd->add_option("--limit", o.evaluation.images, "Evaluate the SNN on the first N test images")->capture_default_str()
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    cmd->add_flag("--full", c->full, "Evaluate on all 10,000 test images");
    cmd->add_option("--timesteps", c->timesteps, "Checkpoints T, read in one run")->capture_default_str();
    cmd->add_option("--epochs", o.training.epochs, "Training epochs (Adam)")->capture_default_str()
        ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
    cmd->add_option("--train-limit", o.training.train_images, "Train on the first N training images (0: all)")
        ->capture_default_str();
    cmd->add_option("--lr", o.training.learning_rate, "Adam's peak learning rate")->capture_default_str();
    cmd->add_option("--train-seed", o.training.seed, "Seed of initialisation and shuffling")->capture_default_str();
    cmd->add_flag("--retrain", o.retrain, "Train even when the cached model matches");
    cmd->add_option("--norm-images", o.conversion.norm_images, "Training images for the λ percentiles (0: all)")
        ->capture_default_str();
    cmd->add_option("--percentile", o.conversion.percentile, "Percentile of the ReLU outputs that becomes λ")
        ->capture_default_str();
    cmd->add_option("--v0", o.conversion.v0, "Initial membrane potential, in units of the threshold (0 or 0.5)")
        ->capture_default_str();
    cmd->add_option("--readout", c->readout,
                    "Output readout: count (most spikes, ties by membrane) or membrane (the integrated input)")
        ->capture_default_str();
    cmd->add_option("--raster-image", o.raster_image, "Test image whose spikes are recorded")->capture_default_str();
    cmd->add_option("--raster-steps", o.raster_steps, "Steps of the recorded image")->capture_default_str();
    add_threads_option(*cmd, c->threads, "Threads (0: all cores)");
    cmd->add_option("--seed", o.seed, "Seed of the simulation")->capture_default_str();
    cmd->add_option("--quantize", o.hardware.bits, "Bits of the integer mode of the hardware head")->capture_default_str();
    cmd->add_option("--hardware-timesteps", o.hardware.timesteps,
                    "T of the classifier head on danna2 and RISP (0: skip that stage)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--hardware-images", o.hardware.images,
                    "Images of the hardware stage: the first N of the evaluated ones (0: all)")
        ->capture_default_str();
    cmd->add_option("--temporal-sequences", o.temporal.test_sequences,
                    "Test sequences per question of the temporal stage on danna2 (0: skip it); as many training "
                    "sequences")
        ->capture_default_str();
    cmd->add_flag("--seed-hand-built", o.temporal.seed_hand_built,
                  "Start the temporal stage's EONS from the hand-built networks instead of the ones EONS designed "
                  "from random networks");
    cmd->add_option("--temporal-generations", o.temporal.generations, "EONS generations per question")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_flag("--json", c->json, "Print one JSON object with the figures on stdout");
    cmd->add_flag("--quiet", c->quiet, "No progress lines");
    cmd->callback([c] { run_demo(*c); });
}

}  // namespace volley::cli
