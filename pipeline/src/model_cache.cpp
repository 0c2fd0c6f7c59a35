// The pipeline's model cache (see model_cache.hpp).

#include <volley/pipeline/model_cache.hpp>

#include <volley/convert/model_writers.hpp>
#include <volley/error.hpp>
#include <volley/json_text.hpp>
#include <volley/text_file.hpp>
#include <volley/snn/sha256.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace volley::pipeline {

namespace {

constexpr const char* record_format = "volley demo model cache 1";

nlohmann::json settings_json(const training_settings& s) {
    return {{"model", s.model},       {"optimizer", s.optimizer},         {"epochs", s.epochs},
            {"batch", s.batch},       {"learning_rate", s.learning_rate}, {"train_images", s.train_images},
            {"seed", s.seed}};
}

/// Why the cached model cannot be used, or "" when it can.
std::string cache_problem(const std::filesystem::path& model_file, const training_settings& settings,
                          nlohmann::json& record, std::string& sha) {
    const auto record_file = cache_record_path(model_file);
    if (!std::filesystem::exists(model_file)) return "no cached model " + model_file.string();
    if (!std::filesystem::exists(record_file)) return "no checksum record " + record_file.string();
    std::ifstream in(record_file);
    try {
        record = parse_json_stream(in, record_file.string());
    } catch (const error&) {
        return "unreadable checksum record " + record_file.string();
    }
    if (!record.is_object() || record.value("format", "") != record_format ||
        !record.contains("sha256") || !record.contains("settings"))
        return "unreadable checksum record " + record_file.string();
    if (record["settings"] != settings_json(settings))
        return "the cached model was trained with other settings (" + record["settings"].dump() + ")";
    sha = file_sha256(model_file);
    const std::string expected = record["sha256"].get<std::string>();
    if (sha != expected)
        return "checksum mismatch: " + model_file.string() + " has SHA-256 " + sha + ", the record says " + expected +
               " (corrupted or replaced)";
    return "";
}

/// Moves `from` onto `to`; io_error naming both on failure.
void replace_file(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec);
    if (ec) throw io_error(to.string(), "cannot move " + from.string() + " into place: " + ec.message());
}

}  // namespace

std::string training_settings::command_line() const {
    std::ostringstream s;
    s << "volley train --model " << model << " --optimizer " << optimizer << " --batch " << batch << " --epochs "
      << epochs << " --lr " << learning_rate << " --seed " << seed;
    if (train_images != 0) s << " --train-images " << train_images;
    return s.str();
}

std::string file_sha256(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw io_error(file.string(), "cannot open for its checksum");
    snn::detail::sha256 h;
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got > 0) h.update(std::as_bytes(std::span<const char>(buffer.data(), got)));
    }
    if (in.bad()) throw io_error(file.string(), "read error while computing its checksum");
    return h.finish_hex();
}

std::filesystem::path cache_record_path(const std::filesystem::path& model_file) {
    return std::filesystem::path(model_file.string() + ".json");
}

cached_model obtain_model(const std::filesystem::path& cache_dir, const training_settings& settings,
                             const convert::image_dataset& train, const convert::image_dataset& test, int threads,
                             bool force_training,
                             const std::function<void(const convert::training_progress&)>& on_progress,
                             const std::function<void(const convert::epoch_record&)>& on_epoch) {
    std::error_code ec;
    std::filesystem::create_directories(cache_dir, ec);
    if (ec) throw io_error(cache_dir.string(), "cannot create the model cache folder: " + ec.message());
    cached_model out;
    out.file = cache_dir / (settings.model + "_cnn.h5");

    nlohmann::json record;
    std::string sha;
    const std::string problem =
        force_training ? std::string("--retrain given") : cache_problem(out.file, settings, record, sha);
    if (problem.empty()) {
        out.from_cache = true;
        out.sha256 = sha;
        out.reason = "checksum matches";
        out.recorded_train_s = record.value("train_s", 0.0);
        out.train_images = record.value("train_images", std::size_t{0});
        return out;
    }
    out.reason = problem;

    // A subset is a copy; the whole set is used in place.
    const bool subset = settings.train_images != 0 && settings.train_images < train.count();
    const auto train_subset = subset ? train.head(settings.train_images) : convert::image_dataset{};
    const convert::image_dataset& train_set = subset ? train_subset : train;
    auto model = convert::make_model(settings.model, settings.seed);
    auto opt = convert::make_optimizer(settings.optimizer, convert::optimizer_settings{});
    convert::training_options t;
    t.batch_size = settings.batch;
    t.epochs = settings.epochs;
    t.learning_rate = settings.learning_rate;
    t.threads = threads;
    t.seed = settings.seed;
    const auto report = convert::train(model, *opt, train_set, nullptr, t, on_progress, on_epoch);

    convert::model_provenance prov;
    prov.training = settings.command_line() + " (by volley demo)";
    prov.test_accuracy = report.test_accuracy;
    prov.epochs = settings.epochs;
    prov.train_time_s = report.wall_s;
    const auto reference = convert::make_reference_batch(model, test, 16);
    const auto tmp_model = std::filesystem::path(out.file.string() + ".tmp");
    convert::write_keras_h5(model, tmp_model, reference, prov);
    // The record goes first to a temporary file as well; the old record is removed before the
    // new model is moved in, so a crash in between leaves a model without a record (retrained).
    std::filesystem::remove(cache_record_path(out.file), ec);
    replace_file(tmp_model, out.file);
    out.sha256 = file_sha256(out.file);
    out.train_s = report.wall_s;
    out.recorded_train_s = report.wall_s;
    out.train_images = train_set.count();

    const nlohmann::json new_record = {{"format", record_format},
                                       {"file", out.file.filename().string()},
                                       {"sha256", out.sha256},
                                       {"settings", settings_json(settings)},
                                       {"training", settings.command_line()},
                                       {"train_images", out.train_images},
                                       {"train_s", report.wall_s}};
    write_text_file(cache_record_path(out.file), new_record.dump(2) + "\n", "checksum record");
    return out;
}

}  // namespace volley::pipeline
