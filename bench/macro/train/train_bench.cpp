// bench/macro/train: the trainer's targets from issue 7, measured and printed in one run.
//   1. accuracy: the reference CNN, default settings, test accuracy and wall time;
//   2. the LARS experiment in miniature: batch 256 SGD against batch 4096/8192 with SGD (linear
//      LR scaling + warm-up) and LARS, at equal epochs;
//   3. throughput: training images/s, and the PyTorch peer on the same model, batch and threads
//      when python3-torch is installed.
// Usage: volley_train_bench [--epochs E] [--lars-epochs E] [--lars-model small|reference]
//                           [--lars-lr GAMMA] [--threads N] [--skip-accuracy] [--skip-lars]
//                           [--lars-only] [--throughput-steps S [--peer bench/peers/torch_train.py]]

#include <volley/convert/trainer.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace vc = volley::convert;

namespace {

struct run_spec {
    std::string model, optimizer;
    std::size_t batch, epochs;
    double lr, warmup_epochs;
};

struct run_result {
    run_spec spec;
    vc::training_report report;
    std::string note;  ///< "diverged at epoch E, step S" when the loss blew up
};

run_result run(const run_spec& s, const vc::image_dataset& train, const vc::image_dataset& test,
               int threads) {
    auto model = vc::make_model(s.model, 1);
    vc::optimizer_settings settings;
    settings.weight_decay = s.optimizer == "lars" ? 5e-4 : 0.0;
    auto opt = vc::make_optimizer(s.optimizer, settings);
    vc::training_options o;
    o.batch_size = s.batch;
    o.epochs = s.epochs;
    o.learning_rate = s.lr;
    o.warmup_epochs = s.warmup_epochs;
    o.threads = threads;
    std::fprintf(stderr, "  %s batch %zu %s lr %g warm-up %g epochs %zu ...\n", s.model.c_str(),
                 s.batch, s.optimizer.c_str(), s.lr, s.warmup_epochs, s.epochs);
    try {
        auto report = vc::train(model, *opt, train, &test, o, {}, [](const vc::epoch_record& e) {
            std::fprintf(stderr, "    epoch %zu: loss %.4f test %.2f%% %.0f img/s\n", e.epoch,
                         e.train_loss, 100 * e.test_accuracy, e.images_per_s);
        });
        return {s, report, ""};
    } catch (const vc::training_diverged& e) {
        std::fprintf(stderr, "    %s\n", e.what());
        vc::training_report r;
        r.test_accuracy = 0;
        return {s, r, "diverged at epoch " + std::to_string(e.epoch()) + ", step " + std::to_string(e.step())};
    }
}

/// Training images/s of the reference CNN at `batch` on `threads` threads over `steps` Adam steps
/// (after 5 warm-up steps), as the torch peer measures it.
double volley_throughput(const vc::image_dataset& train, std::size_t batch, int threads,
                         std::size_t steps) {
    auto model = vc::make_model("reference", 1);
    auto opt = vc::make_optimizer("adam", {});
    vc::data_parallel_trainer trainer(model, threads);
    const auto order = vc::epoch_order(train.count(), 1, 0);
    const auto step = [&](std::size_t s) {
        const std::size_t begin = (s * batch) % (train.count() - batch);
        trainer.train_step(train, {order.data() + begin, batch}, *opt, 2e-3, 1, s);
    };
    for (std::size_t s = 0; s < 5; ++s) step(s);
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t s = 0; s < steps; ++s) step(5 + s);
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return static_cast<double>(steps * batch) / dt;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t epochs = 10, lars_epochs = 5;
    std::string lars_model = "small", peer;
    double lars_lr = 10.0;
    std::size_t throughput_steps = 0;
    int threads = 2;
    bool accuracy = true, lars = true, sgd = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--epochs") epochs = std::stoul(next());
        else if (a == "--lars-epochs") lars_epochs = std::stoul(next());
        else if (a == "--lars-model") lars_model = next();
        else if (a == "--lars-lr") lars_lr = std::stod(next());
        else if (a == "--threads") threads = std::stoi(next());
        else if (a == "--skip-accuracy") accuracy = false;
        else if (a == "--skip-lars") lars = false;
        else if (a == "--lars-only") sgd = false;
        else if (a == "--peer") peer = next();
        else if (a == "--throughput-steps") throughput_steps = std::stoul(next());
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    const auto train = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "train");
    const auto test = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "test");
    nlohmann::json out;
    if (accuracy) {
        std::fprintf(stderr, "accuracy target (reference CNN, >= 91.0%% in <= 300 s on 2 cores):\n");
        const auto r = run({"reference", "adam", 128, epochs, 2e-3, 0}, train, test, threads);
        std::printf("accuracy: reference CNN, adam, batch 128, %zu epochs, %d threads: test accuracy "
                    "%.2f%%, wall %.1f s, %.0f images/s -> %s\n",
                    epochs, threads, 100 * r.report.test_accuracy, r.report.wall_s,
                    r.report.images_per_s,
                    r.report.test_accuracy >= 0.91 && r.report.wall_s <= 300 ? "PASS" : "MISS");
        out["accuracy"] = {{"test_accuracy", r.report.test_accuracy}, {"wall_s", r.report.wall_s},
                           {"images_per_s", r.report.images_per_s}, {"epochs", epochs}};
    }
    if (throughput_steps > 0) {
        // Alternate volley and the torch peer twice, so that both see the same machine load.
        const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
        for (int round = 0; round < 2; ++round) {
            const double ips = volley_throughput(train, 128, threads, throughput_steps);
            std::printf("throughput: volley reference CNN, batch 128, %d threads: %.0f training images/s\n",
                        threads, ips);
            out["throughput"].push_back({{"volley_images_per_s", ips}});
            std::fflush(stdout);
            if (peer.empty()) continue;
            const std::string cmd = python + " " + peer + " --batch 128 --threads " +
                                    std::to_string(threads) + " --steps " + std::to_string(throughput_steps);
            if (std::system(cmd.c_str()) != 0) std::printf("torch peer: failed\n");
            std::fflush(stdout);
        }
    }
    if (lars) {
        // Base rate 0.05 for batch 256 (SGD); linear scaling k·0.05 for batch 256·k.
        std::fprintf(stderr, "LARS experiment (%s CNN, %zu epochs each):\n", lars_model.c_str(), lars_epochs);
        const double w = std::max(1.0, 0.2 * static_cast<double>(lars_epochs));
        const std::vector<run_spec> specs{
            {lars_model, "sgd", 256, lars_epochs, 0.05, 0},
            {lars_model, "sgd", 4096, lars_epochs, 0.8, w},
            {lars_model, "lars", 4096, lars_epochs, lars_lr, w},
            {lars_model, "sgd", 8192, lars_epochs, 1.6, w},
            {lars_model, "lars", 8192, lars_epochs, lars_lr, w},
        };
        std::printf("\n| batch | optimiser | LR (peak) | warm-up [epochs] | epochs | test accuracy | wall time |\n");
        std::printf("|---|---|---|---|---|---|---|\n");
        for (const auto& s : specs) {
            if (!sgd && s.optimizer != "lars") continue;
            const auto r = run(s, train, test, threads);
            const std::string acc = r.note.empty() ? std::to_string(100 * r.report.test_accuracy).substr(0, 5) + "%" : r.note;
            std::printf("| %zu | %s | %g | %g | %zu | %s | %.0f s |\n", s.batch,
                        s.optimizer == "sgd" ? (s.batch == 256 ? "SGD+momentum" : "SGD+momentum, linear scaling")
                                             : "LARS (eta 0.001)",
                        s.lr, s.warmup_epochs, s.epochs, acc.c_str(), r.report.wall_s);
            std::fflush(stdout);
            out["lars"].push_back({{"batch", s.batch}, {"optimizer", s.optimizer}, {"lr", s.lr},
                                   {"warmup_epochs", s.warmup_epochs}, {"epochs", s.epochs},
                                   {"test_accuracy", r.report.test_accuracy}, {"wall_s", r.report.wall_s},
                                   {"note", r.note}});
        }
    }
    std::printf("\n%s\n", out.dump().c_str());
    return 0;
}
