// `volley train`: trains a reference CNN on Fashion-MNIST and writes it as Keras or Volley HDF5.

#include "cli_common.hpp"
#include "mpi_launch.hpp"

#include <volley/convert/model_writers.hpp>
#include <volley/convert/trainer.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>

namespace volley::cli {

namespace {

struct train_options {
    std::string data = "fashion-mnist";
    std::string data_dir{convert::default_fashion_mnist_dir};
    std::string model = "reference", optimizer = "adam", out = "model.h5", format = "keras";
    std::size_t batch = 128, epochs = 10, train_images = 0;
    std::optional<double> lr;
    double warmup_epochs = 0, momentum = 0.9, weight_decay = 0, trust = 0.001;
    int threads = 0;
    std::size_t slices = 0;
    std::uint64_t seed = 1;
    bool json = false, quiet = false;
};

/// The default peak learning rate of each optimiser (for batch 128; LARS's is the global γ).
double default_learning_rate(const std::string& optimizer) {
    if (optimizer == "adam") return 2e-3;
    if (optimizer == "lars") return 4.0;
    return 0.05;
}

/// Redraws one status line on stderr: epoch, a bar, the running loss and throughput.
void draw_progress(const convert::training_progress& p, std::size_t epochs) {
    const int width = 30;
    const double frac = static_cast<double>(p.step) / static_cast<double>(p.steps_per_epoch);
    const int filled = static_cast<int>(frac * width);
    std::fprintf(stderr, "\repoch %zu/%zu [%.*s%*s] %3.0f%%  loss %.4f  %.0f img/s ", p.epoch,
                 epochs, filled, "##############################", width - filled, "", 100 * frac,
                 p.mean_loss, p.images_per_s);
    std::fflush(stderr);
}

nlohmann::json epoch_json(const convert::epoch_record& e) {
    return {{"epoch", e.epoch},
            {"train_loss", e.train_loss},
            {"train_accuracy", e.train_accuracy},
            {"test_accuracy", e.test_accuracy},
            {"learning_rate", e.learning_rate},
            {"train_s", e.train_s},
            {"images_per_s", e.images_per_s}};
}

void run_training(const train_options& o) {
    if (o.data != "fashion-mnist")
        throw invalid_parameter("--data", "data set", o.data, "only fashion-mnist is supported");
    if (o.format != "keras" && o.format != "volley")
        throw invalid_parameter("--format", "format", o.format, "expected keras or volley");
    const auto train_full = convert::load_fashion_mnist(o.data_dir, "train");
    const auto train_set = train_full.head(o.train_images);
    const auto test_set = convert::load_fashion_mnist(o.data_dir, "test");
    auto model = convert::make_model(o.model, o.seed);
    convert::optimizer_settings settings;
    settings.momentum = o.momentum;
    settings.weight_decay = o.weight_decay;
    settings.trust_coefficient = o.trust;
    auto opt = convert::make_optimizer(o.optimizer, settings);
    convert::training_options t;
    t.batch_size = o.batch;
    t.epochs = o.epochs;
    t.learning_rate = o.lr.value_or(default_learning_rate(o.optimizer));
    t.warmup_epochs = o.warmup_epochs;
    t.threads = o.threads;
    t.seed = o.seed;
    t.slices = o.slices;
    // Under mpirun every rank computes its block of each batch's slices (docs/training.md, "On
    // MPI ranks"); only rank 0 prints and writes the model.
    const auto ranks = launch_context();
    const bool writes = ranks.id() == 0;
    if (ranks.size() > 1)
        t.share = {ranks.id(), ranks.size(), [ranks](std::span<const double> mine) { return ranks.gather_values(mine); }};

    const bool bar = !o.quiet && stderr_is_terminal() && writes;
    std::FILE* log = o.json ? stderr : stdout;
    if (!o.quiet && writes)
        std::fprintf(log, "training %s (%zu parameters) on %zu images: %s, batch %zu, lr %g, %zu epochs\n",
                     o.model.c_str(), model.parameter_count(), train_set.count(), o.optimizer.c_str(),
                     t.batch_size, t.learning_rate, t.epochs);
    const auto report = convert::train(
        model, *opt, train_set, &test_set, t,
        [&](const convert::training_progress& p) {
            if (bar) draw_progress(p, t.epochs);
        },
        [&](const convert::epoch_record& e) {
            if (bar) std::fputs("\r\033[K", stderr);
            if (!o.quiet && writes)
                std::fprintf(log, "epoch %zu: train loss %.4f, test accuracy %.2f%%, %.0f images/s, lr %.3g\n",
                             e.epoch, e.train_loss, 100 * e.test_accuracy, e.images_per_s, e.learning_rate);
            std::fflush(log);
        });

    convert::model_provenance prov;
    prov.training = "volley train --model " + o.model + " --optimizer " + o.optimizer +
                    " --batch " + std::to_string(o.batch) + " --epochs " + std::to_string(o.epochs) +
                    " --lr " + std::to_string(t.learning_rate) + " --seed " + std::to_string(o.seed);
    prov.test_accuracy = report.test_accuracy;
    prov.epochs = o.epochs;
    prov.train_time_s = report.wall_s;
    const auto reference = convert::make_reference_batch(model, test_set, 16);
    if (writes) {
        if (o.format == "keras") convert::write_keras_h5(model, o.out, reference, prov);
        else convert::write_volley_h5(model, o.out, reference, prov);
    }

    if (o.json) {
        nlohmann::json epochs = nlohmann::json::array();
        for (const auto& e : report.epochs) epochs.push_back(epoch_json(e));
        print_json({{"model", o.model},
                    {"parameters", model.parameter_count()},
                    {"optimizer", o.optimizer},
                    {"batch", o.batch},
                    {"epochs", epochs},
                    {"learning_rate", t.learning_rate},
                    {"warmup_epochs", o.warmup_epochs},
                    {"threads", report.threads},
                    {"slices", report.slices},
                    {"ranks", report.ranks},
                    {"exchange_s", report.exchange_s},
                    {"seed", o.seed},
                    {"train_images", train_set.count()},
                    {"test_accuracy", report.test_accuracy},
                    {"wall_s", report.wall_s},
                    {"images_per_s", report.images_per_s},
                    {"out", o.out},
                    {"format", o.format}});
        return;
    }
    if (!o.quiet && writes)
        std::printf("test accuracy %.2f%% after %zu epochs, %.1f s, %.0f images/s; wrote %s\n",
                    100 * report.test_accuracy, o.epochs, report.wall_s, report.images_per_s,
                    o.out.c_str());
}

}  // namespace

void register_train(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand("train", "Train a reference CNN on Fashion-MNIST (SGD, Adam or LARS)");
    auto o = std::make_shared<train_options>();
    cmd->add_option("--data", o->data, "Data set (fashion-mnist)")->capture_default_str();
    cmd->add_option("--data-dir", o->data_dir, "Directory of the IDX files")->capture_default_str();
    cmd->add_option("--model", o->model, "Architecture: " + convert::model_name_list())->capture_default_str();
    cmd->add_option("--optimizer", o->optimizer, "sgd, adam or lars")->capture_default_str();
    cmd->add_option("--batch", o->batch, "Images per step")->capture_default_str();
    cmd->add_option("--epochs", o->epochs, "Passes over the training set")->capture_default_str();
    cmd->add_option("--lr", o->lr, "Peak learning rate (default: adam 2e-3, sgd 0.05, lars 4)");
    cmd->add_option("--warmup-epochs", o->warmup_epochs, "Linear warm-up [epochs], then poly(2) decay")
        ->capture_default_str();
    cmd->add_option("--momentum", o->momentum, "Momentum of SGD and LARS")->capture_default_str();
    cmd->add_option("--weight-decay", o->weight_decay, "L2 weight decay (not on biases)")->capture_default_str();
    cmd->add_option("--trust", o->trust, "LARS trust coefficient eta")->capture_default_str();
    add_threads_option(*cmd, o->threads, "OpenMP threads (0: OMP_NUM_THREADS or all cores)");
    cmd->add_option("--slices", o->slices,
                    "Slices of each batch, summed in order (0: threads x ranks); equal slices give equal "
                    "weights on any threads and MPI ranks");
    cmd->add_option("--seed", o->seed, "Seed of initialisation, shuffling and Dropout")->capture_default_str();
    cmd->add_option("--train-images", o->train_images, "Use only the first N training images (0: all)");
    cmd->add_option("--out", o->out, "Output model file")->capture_default_str();
    cmd->add_option("--format", o->format, "keras (tf.keras 2.x HDF5) or volley")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print one JSON object with the curve and figures on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress bar or per-epoch lines");
    cmd->callback([o] { run_training(*o); });
}

}  // namespace volley::cli
