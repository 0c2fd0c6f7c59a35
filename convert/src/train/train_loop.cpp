// The epoch loop: shuffling, the learning-rate schedule, divergence checks and timing.

#include <volley/convert/trainer.hpp>

#include <chrono>
#include <cmath>
#include <limits>

namespace volley::convert {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

training_report train(sequential_model<float>& model, optimizer& opt, const image_dataset& data,
                      const image_dataset* test, const training_options& o,
                      const std::function<void(const training_progress&)>& on_progress,
                      const std::function<void(const epoch_record&)>& on_epoch) {
    const std::size_t count = data.count();
    if (o.batch_size == 0 || o.batch_size > count)
        throw invalid_parameter("training", "batch size", std::to_string(o.batch_size),
                                "must be between 1 and the " + std::to_string(count) +
                                    " training images");
    if (o.epochs == 0) throw invalid_parameter("training", "epochs", "0", "must be >= 1");
    if (!(std::isfinite(o.warmup_epochs) && o.warmup_epochs >= 0 &&
          o.warmup_epochs <= static_cast<double>(o.epochs)))
        throw invalid_parameter("training", "warmup epochs", std::to_string(o.warmup_epochs),
                                "must be between 0 and the " + std::to_string(o.epochs) + " epochs");
    if (data.image_size() != model.input_shape().per_image())
        throw invalid_parameter("training", "image shape", std::to_string(data.image_size()),
                                "does not match the model input " + to_string(model.input_shape()));
    const std::size_t steps_per_epoch = (count + o.batch_size - 1) / o.batch_size;
    learning_rate_schedule schedule{
        o.learning_rate,
        static_cast<std::size_t>(std::llround(o.warmup_epochs * static_cast<double>(steps_per_epoch))),
        steps_per_epoch * o.epochs, o.decay_power};
    schedule.validate();

    data_parallel_trainer trainer(model, o.threads, o.micro_batch, o.slices, o.share);
    training_report report;
    report.threads = trainer.threads();
    report.slices = trainer.slices();
    report.ranks = o.share.ranks;
    const auto run_start = std::chrono::steady_clock::now();
    double train_seconds = 0;
    std::size_t global_step = 0;
    for (std::size_t epoch = 0; epoch < o.epochs; ++epoch) {
        const auto order = epoch_order(count, o.seed, epoch);
        const auto epoch_start = std::chrono::steady_clock::now();
        double loss_sum = 0;
        std::size_t correct = 0, seen = 0;
        epoch_record rec;
        rec.epoch = epoch + 1;
        for (std::size_t s = 0; s < steps_per_epoch; ++s, ++global_step) {
            const std::size_t begin = s * o.batch_size;
            const std::size_t n = std::min(o.batch_size, count - begin);
            const std::span<const std::uint32_t> batch(order.data() + begin, n);
            rec.learning_rate = schedule.at(global_step);
            const step_result r =
                trainer.train_step(data, batch, opt, rec.learning_rate, o.seed, global_step);
            if (!std::isfinite(r.loss)) throw training_diverged(epoch + 1, s + 1, r.loss);
            loss_sum += r.loss * static_cast<double>(n);
            correct += r.correct;
            seen += n;
            if (on_progress)
                on_progress({epoch + 1, s + 1, steps_per_epoch, loss_sum / static_cast<double>(seen),
                             static_cast<double>(seen) / seconds_since(epoch_start)});
        }
        rec.train_s = seconds_since(epoch_start);
        train_seconds += rec.train_s;
        rec.train_loss = loss_sum / static_cast<double>(seen);
        rec.train_accuracy = static_cast<double>(correct) / static_cast<double>(seen);
        rec.images_per_s = static_cast<double>(seen) / rec.train_s;
        rec.test_accuracy = test ? trainer.evaluate(*test) : std::numeric_limits<double>::quiet_NaN();
        report.epochs.push_back(rec);
        if (on_epoch) on_epoch(rec);
    }
    report.steps = global_step;
    report.exchange_s = trainer.exchange_s();
    report.test_accuracy = report.epochs.back().test_accuracy;
    report.wall_s = seconds_since(run_start);
    report.images_per_s = static_cast<double>(count * o.epochs) / train_seconds;
    return report;
}

}  // namespace volley::convert
