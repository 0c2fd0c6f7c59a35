// The pipeline's conversion stage (see conversion_stage.hpp).

#include <volley/pipeline/conversion_stage.hpp>

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/error.hpp>

#include <sstream>

namespace volley::pipeline {

convert::tensor<float> as_tensor(const convert::image_dataset& images) {
    convert::tensor<float> t({images.count(), images.channels, images.height, images.width});
    t.values = images.pixels;
    return t;
}

conversion_stage_result convert_model(const std::filesystem::path& model_file, const convert::image_dataset& train,
                                      const conversion_stage_options& o) {
    if (!(o.percentile > 0 && o.percentile <= 100))
        throw invalid_parameter("conversion stage", "percentile", (std::ostringstream() << o.percentile).str(),
                                "must be in (0, 100]");
    conversion_stage_result r{.graph = convert::read_cnn(model_file), .net = {}, .norm_images = 0};
    convert::normalization_options norm;
    norm.percentile = o.percentile;
    norm.max_images = o.norm_images;
    norm.forward.threads = o.threads;
    const auto norm_set = train.head(o.norm_images);
    r.norm_images = norm_set.count();
    const auto scales = convert::compute_layer_scales(r.graph, as_tensor(norm_set), norm);
    r.net = convert::convert_to_snn(r.graph, scales, convert::conversion_options{.v0 = o.v0});
    return r;
}

}  // namespace volley::pipeline
