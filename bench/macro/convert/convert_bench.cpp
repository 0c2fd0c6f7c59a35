// bench/macro/convert: the CNN-to-SNN conversion of the reference CNN on the full Fashion-MNIST
// test set, on the engine, at T = 8 ... 256 in one run, beside the targets of the conversion
// issue: within 2 pp of the CNN at T = 16, 0.3 pp at T = 64, 0.1 pp at T = 256; the whole
// evaluation in <= 40 s on 2 cores; peak RSS < 1 GB. See bench/macro/convert/README.md.
//
//   volley_convert_bench [MODEL.h5] [--limit N] [--threads N] [--computed-lambda]
//                        [--v0 0|0.5] [--readout count|membrane]
//
// The default conversion is v0 = 0.5 with the integrated-membrane readout (the demo's).
// By default λ is the p99.9 stored in the model's /normalization (the reference fixture's numpy
// values); --computed-lambda measures it with compute_layer_scales on the first 10,000
// training images instead.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>

#include <hdf5.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

namespace vc = volley::convert;

namespace {

/// λ per node from the model file's /normalization attribute `lambda_p99.9` (one per
/// conv/dense layer), or nullopt when the file has none.
std::optional<vc::layer_scales> stored_lambda(const std::string& file, const vc::cnn_graph& g) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return std::nullopt;
    std::optional<vc::layer_scales> out;
    if (H5Aexists_by_name(f, "normalization", "lambda_p99.9", H5P_DEFAULT) > 0) {
        const hid_t a = H5Aopen_by_name(f, "normalization", "lambda_p99.9", H5P_DEFAULT, H5P_DEFAULT);
        const hid_t s = H5Aget_space(a);
        std::vector<double> per_layer(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
        H5Aread(a, H5T_NATIVE_DOUBLE, per_layer.data());
        H5Sclose(s);
        H5Aclose(a);
        vc::layer_scales l;
        std::size_t layer = 0;
        for (const auto& n : g.nodes) {
            if (n.kind == vc::layer_kind::conv2d || n.kind == vc::layer_kind::dense) ++layer;
            if (layer == 0 || layer > per_layer.size()) return std::nullopt;
            l.lambda.push_back(per_layer[layer - 1]);
            l.measured.push_back(true);
            l.positive_count.push_back(1);
        }
        out = l;
    }
    H5Fclose(f);
    return out;
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string default_model = VOLLEY_REFERENCE_MODEL;
    std::string model = default_model;
    std::size_t limit = 0;
    int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    bool computed = false;
    // The conversion the demo uses and the targets are read with (docs/conversion.md,
    // "Measured: the readout and v0"); --v0 0 --readout count is the method of CONVERSION.md's
    // numpy floor, which it reproduces to the image.
    double v0 = 0.5;
    vc::readout_rule readout = vc::readout_rule::membrane;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--limit" && i + 1 < argc) limit = std::stoul(argv[++i]);
        else if (a == "--threads" && i + 1 < argc) threads = std::stoi(argv[++i]);
        else if (a == "--computed-lambda") computed = true;
        else if (a == "--v0" && i + 1 < argc) v0 = std::stod(argv[++i]);
        else if (a == "--readout" && i + 1 < argc) readout = vc::parse_readout_rule("--readout", argv[++i]);
        else if (a.rfind("--", 0) != 0) model = a;
        else {
            std::fprintf(stderr, "usage: volley_convert_bench [MODEL.h5] [--limit N] [--threads N] [--computed-lambda] "
                                 "[--v0 0|0.5] [--readout count|membrane]\n");
            return 2;
        }
    }
    const auto graph = vc::read_cnn(model);
    auto test = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "test").head(limit);
    std::optional<vc::layer_scales> scales = computed ? std::nullopt : stored_lambda(model, graph);
    std::string lambda_source = "p99.9 stored in the model file";
    if (!scales) {
        const auto train = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "train").head(10000);
        vc::tensor<float> x({train.count(), 1, 28, 28});
        x.values = train.pixels;
        scales = vc::compute_layer_scales(graph, x, {});
        lambda_source = "p99.9 computed on the first 10,000 training images";
    }
    const std::size_t n = test.count();
    vc::tensor<float> images({n, 1, 28, 28});
    images.values = test.pixels;
    const auto logits = vc::analog_forward(graph, images, {.threads = threads});
    std::vector<std::int32_t> labels(test.labels.begin(), test.labels.end()), cnn(n);
    std::size_t cnn_ok = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float* row = logits.image(i);
        cnn[i] = static_cast<std::int32_t>(std::max_element(row, row + 10) - row);
        cnn_ok += cnn[i] == labels[i];
    }
    const double cnn_acc = static_cast<double>(cnn_ok) / static_cast<double>(n);
    const auto net = vc::convert_to_snn(graph, *scales, {.v0 = v0});
    vc::evaluation_options o;
    o.threads = threads;
    o.readout = readout;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = vc::evaluate_snn(net, test.pixels, labels, cnn, o);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // CONVERSION.md's numpy floor (p99.9, v0 = 0 or ½, all 10,000 images) and the targets.
    const double floor_v0_0[] = {84.12, 87.20, 88.34, 88.57, 88.77, 88.84};
    const double floor_v0_half[] = {88.26, 88.42, 88.72, 88.88, 88.82, 88.87};
    const bool reference = model == default_model && !computed;  // the floor is that model's
    const double* floor_acc = !reference ? nullptr : v0 == 0 ? floor_v0_0 : v0 == 0.5 ? floor_v0_half : nullptr;
    const double target_pp[] = {NAN, 2.0, NAN, 0.3, NAN, 0.1};
    std::printf("model %s, %zu test images, %d threads, lambda %s, v0 %g, %s readout\n", model.c_str(), n, threads,
                lambda_source.c_str(), v0, vc::to_string(readout).c_str());
    std::printf("CNN accuracy %.2f%%\n", 100 * cnn_acc);
    std::printf("%5s  %9s  %9s  %8s  %11s  %12s  %13s  %s\n", "T", "SNN acc", "agreement", "CNN-SNN", "numpy floor",
                "spikes/img", "synops/img", "target");
    for (std::size_t c = 0; c < r.checkpoints.size(); ++c) {
        const auto& k = r.checkpoints[c];
        const double gap = 100 * (cnn_acc - k.accuracy);
        char target[64] = "";
        if (!std::isnan(target_pp[c]))
            std::snprintf(target, sizeof target, "within %.1f pp: %s", target_pp[c], gap <= target_pp[c] ? "met" : "NOT met");
        char floor_text[16] = "-";
        if (floor_acc) std::snprintf(floor_text, sizeof floor_text, "%.2f%%", floor_acc[c]);
        std::printf("%5lld  %8.2f%%  %8.2f%%  %7.2f  %11s  %12.0f  %13.0f  %s\n", static_cast<long long>(k.timesteps),
                    100 * k.accuracy, 100 * k.agreement, gap, floor_text, k.spikes_per_image, k.synops_per_image, target);
    }
    std::printf("layer rates at T = 256:");
    for (const auto& l : r.layers) std::printf("  %s %.4f", l.name.c_str(), l.spikes_per_step);
    std::printf("\nSNN evaluation wall %.1f s (target <= 40 s for 10,000 images on 2 cores: %s), %.3g synaptic events/s\n",
                wall, n == 10000 && wall <= 40 ? "met" : n == 10000 ? "NOT met" : "n/a, not the full set", r.synops_per_s);
    const double rss = peak_rss_mb();
    std::printf("peak RSS %.0f MB (target < 1024 MB: %s)\n", rss, rss < 1024 ? "met" : "NOT met");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "volley_convert_bench: %s\n", e.what());
    return 1;
}
