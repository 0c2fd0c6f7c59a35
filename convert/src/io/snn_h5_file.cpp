// The converted SNN as HDF5 (see snn_h5.hpp and docs/conversion-formats.md).

#include <volley/convert/snn_h5.hpp>

#include <volley/error.hpp>
#include <volley/json_text.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_image.hpp>

#include "io/h5_read.hpp"
#include "io/h5_write.hpp"

#include <array>
#include <cmath>

namespace volley::convert {

namespace {

using detail::hdf5_id;
constexpr const char* format_name = "volley-snn";
constexpr std::int64_t format_version = 1;

// ---- writing ----

void text(hid_t obj, const std::string& name, const std::string& value, const std::string& file) {
    detail::write_string_array_attribute(obj, name, {value}, file);
}

void doubles(hid_t parent, const std::string& name, const std::vector<double>& v, const std::string& file,
             std::vector<hsize_t> dims = {}) {
    if (dims.empty()) dims = {static_cast<hsize_t>(v.size())};
    detail::write_double_dataset(parent, name, dims, v, file);
}

std::vector<std::int32_t> geometry(const snn::convolution& c) {
    return {static_cast<std::int32_t>(c.in_channels), static_cast<std::int32_t>(c.in_height),
            static_cast<std::int32_t>(c.in_width),    static_cast<std::int32_t>(c.out_channels),
            static_cast<std::int32_t>(c.kernel_height), static_cast<std::int32_t>(c.kernel_width),
            static_cast<std::int32_t>(c.stride_h),    static_cast<std::int32_t>(c.stride_w),
            static_cast<std::int32_t>(c.pad_top),     static_cast<std::int32_t>(c.pad_bottom),
            static_cast<std::int32_t>(c.pad_left),    static_cast<std::int32_t>(c.pad_right),
            static_cast<std::int32_t>(c.dilation_h),  static_cast<std::int32_t>(c.dilation_w),
            static_cast<std::int32_t>(c.groups)};
}

void write_convolution(hid_t g, const snn::convolution& c, const std::string& file) {
    detail::write_int_array_attribute(g, "geometry", geometry(c), file);
    const hsize_t per_group = c.groups == 0 ? 0 : c.in_channels / c.groups;
    doubles(g, "kernel", c.kernel, file, {c.out_channels, per_group, c.kernel_height, c.kernel_width});
}

/// Per-neuron overrides or initial values: one dataset each, in order; a constant is one value
/// with the attribute constant = 1.
void write_values(hid_t parent, const std::string& group, const std::vector<std::pair<std::string, snn::value_spec>>& values,
                  const std::string& object, const std::string& file) {
    auto g = snn::detail::create_group(parent, group, file);
    for (const auto& [name, v] : values) {
        if (const auto* d = std::get_if<double>(&v)) {
            doubles(g.get(), name, {*d}, file);
            hdf5_id set(H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
            detail::write_int_attribute(set.get(), "constant", 1, file);
        } else if (const auto* l = std::get_if<std::vector<double>>(&v)) {
            doubles(g.get(), name, *l, file);
        } else {
            throw unsupported_model(object, "'" + name + "' is a distribution; the SNN HDF5 layout holds values only");
        }
    }
}

void write_population(hid_t g, const snn::population& p, const std::string& file) {
    const std::string object = "population '" + p.name + "'";
    text(g, "name", p.name, file);
    detail::write_int_attribute(g, "size", p.size, file);
    if (const auto* n = std::get_if<snn::discrete_neuron>(&p.model)) {
        text(g, "model", "discrete_neuron", file);
        detail::write_double_attribute(g, "tau_mem_ms", n->p.tau_mem_ms, file);
        detail::write_double_attribute(g, "tau_syn_ms", n->p.tau_syn_ms, file);
        detail::write_double_attribute(g, "r", n->p.r, file);
        detail::write_double_attribute(g, "v_leak", n->p.v_leak, file);
        detail::write_double_attribute(g, "v_threshold", n->p.v_threshold, file);
        detail::write_double_attribute(g, "v_reset", n->p.v_reset, file);
        detail::write_double_attribute(g, "w_in", n->p.w_in, file);
        detail::write_double_attribute(g, "i_bias", n->p.i_bias, file);
        text(g, "reset", snn::reset_mode_name(n->reset), file);
        text(g, "integration", snn::integration_name(n->method), file);
    } else if (const auto* a = std::get_if<snn::analog_source>(&p.model)) {
        if (!a->values.empty()) throw unsupported_model(object, "an analog_source with a value table");
        text(g, "model", "analog_source", file);
    } else {
        throw unsupported_model(object, "model " + snn::model_name(p.model) +
                                            ": the SNN HDF5 layout holds discrete_neuron and analog_source");
    }
    write_values(g, "parameters", p.parameters, object, file);
    write_values(g, "initial_values", p.initial_values, object, file);
}

void write_projection(hid_t g, const snn::projection& p, std::size_t index, const std::string& file) {
    const std::string object = "projection " + std::to_string(index);
    detail::write_int_attribute(g, "source", p.source.value, file);
    detail::write_int_attribute(g, "target", p.target.value, file);
    text(g, "receptor", p.synapse.receptor == snn::excitatory ? "excitatory" : "inhibitory", file);
    if (!std::holds_alternative<std::monostate>(p.synapse.plasticity))
        throw unsupported_model(object, "plastic synapses are not part of the SNN HDF5 layout");
    const auto* delay = std::get_if<double>(&p.synapse.delay_ms);
    if (!delay) throw unsupported_model(object, "per-synapse delays are not part of the SNN HDF5 layout");
    detail::write_double_attribute(g, "delay_ms", *delay, file);
    if (const auto* w = std::get_if<double>(&p.synapse.weight)) detail::write_double_attribute(g, "weight", *w, file);
    else if (const auto* l = std::get_if<std::vector<double>>(&p.synapse.weight)) doubles(g, "weight", *l, file);
    else throw unsupported_model(object, "weights drawn from a distribution");
    if (const auto* a = std::get_if<snn::all_to_all>(&p.rule)) {
        text(g, "connector", "all_to_all", file);
        detail::write_int_attribute(g, "allow_autapses", a->allow_autapses ? 1 : 0, file);
    } else if (const auto* c = std::get_if<snn::convolution>(&p.rule)) {
        text(g, "connector", "convolution", file);
        write_convolution(g, *c, file);
    } else {
        throw unsupported_model(object, "connector " + snn::connector_name(p.rule) +
                                            ": the SNN HDF5 layout holds all_to_all and convolution");
    }
}

// ---- reading ----

struct reader {
    std::string file;

    std::string req_text(hid_t obj, const std::string& name, const std::string& path) const {
        auto v = detail::read_text_attribute(obj, name, file);
        if (!v) throw file_format_error(file, path + " attribute '" + name + "'", "missing");
        return *v;
    }
    double req_double(hid_t obj, const std::string& name, const std::string& path) const {
        auto v = detail::read_double_attribute(obj, name, file, path);
        if (!v) throw file_format_error(file, path + " attribute '" + name + "'", "missing");
        return *v;
    }
    std::vector<std::int64_t> req_ints(hid_t obj, const std::string& name, const std::string& path,
                                       std::size_t count) const {
        auto v = detail::read_int_list_attribute(obj, name, file, path);
        if (!v) throw file_format_error(file, path + " attribute '" + name + "'", "missing");
        if (count != 0 && v->size() != count)
            throw file_format_error(file, path + " attribute '" + name + "'",
                                    "expected " + std::to_string(count) + " integers, found " + std::to_string(v->size()));
        return *v;
    }
    std::int64_t req_int(hid_t obj, const std::string& name, const std::string& path, std::int64_t lo,
                         std::int64_t hi) const {
        const auto v = req_ints(obj, name, path, 1)[0];
        if (v < lo || v > hi)
            throw file_format_error(file, path + " attribute '" + name + "'",
                                    "value " + std::to_string(v) + " outside " + std::to_string(lo) + ".." + std::to_string(hi));
        return v;
    }
    hdf5_id group(hid_t parent, const std::string& name, const std::string& path) const {
        auto g = snn::detail::open_group_if_present(parent, name);
        if (!g.valid()) throw file_format_error(file, path, "missing group");
        return g;
    }
    std::vector<double> data(hid_t parent, const std::string& name, const std::string& path, std::size_t expected) const {
        auto set = snn::detail::open_dataset_if_present(parent, name);
        if (!set.valid()) throw file_format_error(file, path, "missing dataset");
        auto v = snn::detail::read_dataset_values<double>(set.get(), H5T_NATIVE_DOUBLE, file, path);
        if (expected != static_cast<std::size_t>(-1) && v.size() != expected)
            throw file_format_error(file, path, "expected " + std::to_string(expected) + " values, found " + std::to_string(v.size()));
        return v;
    }
    std::vector<std::string> children(hid_t g, const std::string& path) const {
        return snn::detail::child_names(g, file, path);
    }

    snn::convolution convolution(hid_t g, const std::string& path) const {
        const auto geo = req_ints(g, "geometry", path, 15);
        for (std::size_t i = 0; i < geo.size(); ++i)
            if (geo[i] < 0 || geo[i] > 1'000'000'000)
                throw file_format_error(file, path + " attribute 'geometry'", "value " + std::to_string(geo[i]) + " out of range");
        auto u = [&](std::size_t i) { return static_cast<std::uint32_t>(geo[i]); };
        snn::convolution c;
        c.in_channels = u(0), c.in_height = u(1), c.in_width = u(2), c.out_channels = u(3);
        c.kernel_height = u(4), c.kernel_width = u(5), c.stride_h = u(6), c.stride_w = u(7);
        c.pad_top = u(8), c.pad_bottom = u(9), c.pad_left = u(10), c.pad_right = u(11);
        c.dilation_h = u(12), c.dilation_w = u(13), c.groups = u(14);
        if (c.groups == 0 || c.in_channels % c.groups != 0)
            throw file_format_error(file, path + " attribute 'geometry'", "groups " + std::to_string(c.groups) +
                                                                             " does not divide " + std::to_string(c.in_channels) + " channels");
        c.kernel = data(g, "kernel", path + "/kernel",
                        std::size_t{c.out_channels} * (c.in_channels / c.groups) * c.kernel_height * c.kernel_width);
        return c;
    }

    std::vector<std::pair<std::string, snn::value_spec>> values(hid_t parent, const std::string& name,
                                                                const std::string& path) const {
        auto g = group(parent, name, path + "/" + name);
        std::vector<std::pair<std::string, snn::value_spec>> out;
        for (const auto& child : children(g.get(), path + "/" + name)) {
            const std::string p = path + "/" + name + "/" + child;
            auto v = data(g.get(), child, p, static_cast<std::size_t>(-1));
            auto set = snn::detail::open_dataset_if_present(g.get(), child);
            const auto constant = detail::read_int_list_attribute(set.get(), "constant", file, p);
            if (constant && !constant->empty() && (*constant)[0] == 1) {
                if (v.size() != 1) throw file_format_error(file, p, "a constant must be one value");
                out.emplace_back(child, v[0]);
            } else {
                out.emplace_back(child, std::move(v));
            }
        }
        return out;
    }
};

}  // namespace

void write_snn_h5(const snn_h5_contents& c, const std::string& path) {
    const auto& net = c.snn;
    if (!net.network.stimuli().empty())
        throw unsupported_model(net.source_file, "current stimuli are not part of the SNN HDF5 layout");
    // Built in memory and written whole (hdf5_image.hpp): a full disk cannot leave a damaged file.
    auto f = snn::detail::create_hdf5_image(path);
    const hid_t root = f.get();
    text(root, "format", format_name, path);
    detail::write_int_attribute(root, "version", format_version, path);
    text(root, "source_file", net.source_file, path);
    detail::write_double_attribute(root, "dt_ms", 1.0, path);
    detail::write_int_attribute(root, "quantized_bits", c.quantized_bits, path);
    text(root, "options", c.options.dump(), path);
    detail::write_int_array_attribute(root, "image_shape",
                                      {static_cast<std::int32_t>(net.channels), static_cast<std::int32_t>(net.height),
                                       static_cast<std::int32_t>(net.width)}, path);
    detail::write_int_attribute(root, "input_population", net.input ? static_cast<std::int64_t>(net.input->value) : -1, path);
    {
        auto g = snn::detail::create_group(root, "conversion", path);
        text(g.get(), "reset", to_string(net.options.reset), path);
        detail::write_double_attribute(g.get(), "v0", net.options.v0, path);
        text(g.get(), "input", to_string(net.options.input), path);
        if (net.options.input == input_coding::ttfs)
            detail::write_int_attribute(g.get(), "ttfs_window", net.options.ttfs_window, path);
        detail::write_double_attribute(g.get(), "max_rate", net.options.max_rate, path);
        detail::write_int_attribute(g.get(), "max_pool_as_avg", net.options.max_pool_as_avg ? 1 : 0, path);
    }
    {
        auto g = snn::detail::create_group(root, "populations", path);
        const auto& pops = net.network.populations();
        for (std::size_t k = 0; k < pops.size(); ++k) {
            auto pg = snn::detail::create_group(g.get(), std::to_string(k), path);
            write_population(pg.get(), pops[k], path);
        }
    }
    {
        auto g = snn::detail::create_group(root, "projections", path);
        const auto& projections = net.network.projections();
        for (std::size_t k = 0; k < projections.size(); ++k) {
            auto pg = snn::detail::create_group(g.get(), std::to_string(k), path);
            write_projection(pg.get(), projections[k], k, path);
        }
    }
    {
        auto g = snn::detail::create_group(root, "layers", path);
        for (std::size_t k = 0; k < net.layers.size(); ++k) {
            const auto& l = net.layers[k];
            auto lg = snn::detail::create_group(g.get(), std::to_string(k), path);
            text(lg.get(), "name", l.name, path);
            detail::write_int_attribute(lg.get(), "node", static_cast<std::int64_t>(l.node), path);
            detail::write_int_attribute(lg.get(), "population", l.population.value, path);
            detail::write_int_array_attribute(lg.get(), "shape",
                                              {static_cast<std::int32_t>(l.channels), static_cast<std::int32_t>(l.height),
                                               static_cast<std::int32_t>(l.width)}, path);
            detail::write_double_attribute(lg.get(), "lambda", l.lambda, path);
        }
    }
    {
        auto g = snn::detail::create_group(root, "first_map", path);
        if (const auto* conv = std::get_if<snn::convolution>(&net.first_map)) {
            text(g.get(), "connector", "convolution", path);
            write_convolution(g.get(), *conv, path);
        } else {
            text(g.get(), "connector", "all_to_all", path);
            if (net.first_weights.size() == net.image_size() * net.first_bias.size() && !net.first_weights.empty())
                doubles(g.get(), "weights", net.first_weights, path,
                        {static_cast<hsize_t>(net.image_size()), static_cast<hsize_t>(net.first_bias.size())});
            else doubles(g.get(), "weights", net.first_weights, path);
        }
        doubles(g.get(), "bias", net.first_bias, path);
    }
    snn::detail::write_hdf5_image(root, path);
}

snn_h5_contents read_snn_h5(const std::string& path) {
    auto f = snn::detail::open_hdf5_file(path, false);
    const hid_t root = f.get();
    const reader r{path};
    if (r.req_text(root, "format", "/") != format_name)
        throw file_format_error(path, "/ attribute 'format'", "not a Volley SNN file (expected '" + std::string(format_name) + "')");
    const auto version = r.req_int(root, "version", "/", 1, 1'000'000);
    if (version != format_version)
        throw file_format_error(path, "/ attribute 'version'", "version " + std::to_string(version) + " is not supported (1)");
    snn_h5_contents c;
    auto& net = c.snn;
    net.source_file = r.req_text(root, "source_file", "/");
    c.quantized_bits = static_cast<int>(r.req_int(root, "quantized_bits", "/", 0, 31));
    const auto options_text = r.req_text(root, "options", "/");
    c.options = parse_json_text(options_text, path, "/ attribute 'options'");
    const auto shape = r.req_ints(root, "image_shape", "/", 3);
    for (auto s : shape)
        if (s < 1 || s > 1'000'000) throw file_format_error(path, "/ attribute 'image_shape'", "dimension " + std::to_string(s) + " out of range");
    net.channels = static_cast<std::size_t>(shape[0]);
    net.height = static_cast<std::size_t>(shape[1]);
    net.width = static_cast<std::size_t>(shape[2]);
    {
        auto g = r.group(root, "conversion", "/conversion");
        const auto reset = r.req_text(g.get(), "reset", "/conversion");
        if (reset == "subtract") net.options.reset = reset_rule::subtract;
        else if (reset == "zero") net.options.reset = reset_rule::zero;
        else throw file_format_error(path, "/conversion attribute 'reset'", "unknown value '" + reset + "'");
        net.options.v0 = r.req_double(g.get(), "v0", "/conversion");
        const auto input = r.req_text(g.get(), "input", "/conversion");
        if (input == "const") net.options.input = input_coding::constant_current;
        else if (input == "poisson") net.options.input = input_coding::poisson;
        else if (input == "bernoulli") net.options.input = input_coding::bernoulli;
        else if (input == "ttfs") {
            net.options.input = input_coding::ttfs;
            net.options.ttfs_window = r.req_int(g.get(), "ttfs_window", "/conversion", 2, 1'000'000);
        } else throw file_format_error(path, "/conversion attribute 'input'", "unknown value '" + input + "'");
        net.options.max_rate = r.req_double(g.get(), "max_rate", "/conversion");
        net.options.max_pool_as_avg = r.req_int(g.get(), "max_pool_as_avg", "/conversion", 0, 1) == 1;
    }
    auto wrap = [&](const std::string& where, auto&& fn) {
        try {
            fn();
        } catch (const file_format_error&) {
            throw;
        } catch (const error& e) {
            throw file_format_error(path, where, e.what());
        }
    };
    {
        auto g = r.group(root, "populations", "/populations");
        const auto names = r.children(g.get(), "/populations");
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string p = "/populations/" + std::to_string(k);
            auto pg = r.group(g.get(), std::to_string(k), p);
            const auto name = r.req_text(pg.get(), "name", p);
            const auto size = static_cast<std::uint32_t>(r.req_int(pg.get(), "size", p, 1, 4'000'000'000));
            const auto model = r.req_text(pg.get(), "model", p);
            snn::neuron_model m;
            if (model == "discrete_neuron") {
                snn::discrete_neuron n;
                n.p.tau_mem_ms = r.req_double(pg.get(), "tau_mem_ms", p);
                n.p.tau_syn_ms = r.req_double(pg.get(), "tau_syn_ms", p);
                n.p.r = r.req_double(pg.get(), "r", p);
                n.p.v_leak = r.req_double(pg.get(), "v_leak", p);
                n.p.v_threshold = r.req_double(pg.get(), "v_threshold", p);
                n.p.v_reset = r.req_double(pg.get(), "v_reset", p);
                n.p.w_in = r.req_double(pg.get(), "w_in", p);
                n.p.i_bias = r.req_double(pg.get(), "i_bias", p);
                wrap(p + " attribute 'reset'", [&] { n.reset = snn::reset_mode_from_name(r.req_text(pg.get(), "reset", p), p); });
                wrap(p + " attribute 'integration'",
                     [&] { n.method = snn::integration_from_name(r.req_text(pg.get(), "integration", p), p); });
                m = n;
            } else if (model == "analog_source") {
                m = snn::analog_source{};
            } else {
                throw file_format_error(path, p + " attribute 'model'", "unknown model '" + model + "'");
            }
            const auto parameters = r.values(pg.get(), "parameters", p);
            const auto initial = r.values(pg.get(), "initial_values", p);
            wrap(p, [&] {
                const auto pop = net.network.add_population(name, size, m);
                for (const auto& [pn, v] : parameters) net.network.set_parameter(pop, pn, v);
                for (const auto& [vn, v] : initial) net.network.initialise(pop, vn, v);
            });
        }
    }
    const auto n_pops = static_cast<std::int64_t>(net.network.populations().size());
    const auto input = r.req_int(root, "input_population", "/", -1, n_pops - 1);
    if (input >= 0) net.input = snn::population_index{static_cast<std::uint32_t>(input)};
    {
        auto g = r.group(root, "projections", "/projections");
        const auto names = r.children(g.get(), "/projections");
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string p = "/projections/" + std::to_string(k);
            auto pg = r.group(g.get(), std::to_string(k), p);
            const auto source = snn::population_index{static_cast<std::uint32_t>(r.req_int(pg.get(), "source", p, 0, n_pops - 1))};
            const auto target = snn::population_index{static_cast<std::uint32_t>(r.req_int(pg.get(), "target", p, 0, n_pops - 1))};
            snn::synapse_spec syn;
            const auto receptor = r.req_text(pg.get(), "receptor", p);
            if (receptor == "excitatory") syn.receptor = snn::excitatory;
            else if (receptor == "inhibitory") syn.receptor = snn::inhibitory;
            else throw file_format_error(path, p + " attribute 'receptor'", "unknown value '" + receptor + "'");
            syn.delay_ms = r.req_double(pg.get(), "delay_ms", p);
            if (auto w = detail::read_double_attribute(pg.get(), "weight", path, p)) syn.weight = *w;
            else syn.weight = r.data(pg.get(), "weight", p + "/weight", static_cast<std::size_t>(-1));
            const auto connector = r.req_text(pg.get(), "connector", p);
            snn::connector rule;
            if (connector == "all_to_all") rule = snn::all_to_all{.allow_autapses = r.req_int(pg.get(), "allow_autapses", p, 0, 1) == 1};
            else if (connector == "convolution") rule = r.convolution(pg.get(), p);
            else throw file_format_error(path, p + " attribute 'connector'", "unknown connector '" + connector + "'");
            wrap(p, [&] { net.network.connect(source, target, std::move(rule), std::move(syn)); });
        }
    }
    {
        auto g = r.group(root, "layers", "/layers");
        const auto names = r.children(g.get(), "/layers");
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string p = "/layers/" + std::to_string(k);
            auto lg = r.group(g.get(), std::to_string(k), p);
            spiking_layer l;
            l.name = r.req_text(lg.get(), "name", p);
            l.node = static_cast<std::size_t>(r.req_int(lg.get(), "node", p, 0, 1'000'000'000));
            l.population = snn::population_index{static_cast<std::uint32_t>(r.req_int(lg.get(), "population", p, 0, n_pops - 1))};
            const auto s = r.req_ints(lg.get(), "shape", p, 3);
            l.channels = static_cast<std::size_t>(s[0]);
            l.height = static_cast<std::size_t>(s[1]);
            l.width = static_cast<std::size_t>(s[2]);
            if (l.size() != net.network.at(l.population).size)
                throw file_format_error(path, p + " attribute 'shape'",
                                        std::to_string(l.size()) + " neurons, but population " +
                                            std::to_string(l.population.value) + " has " + std::to_string(net.network.at(l.population).size));
            l.lambda = r.req_double(lg.get(), "lambda", p);
            net.layers.push_back(std::move(l));
        }
        if (net.layers.empty()) throw file_format_error(path, "/layers", "no spiking layers");
    }
    {
        auto g = r.group(root, "first_map", "/first_map");
        const auto n_first = net.layers.front().size();
        net.first_bias = r.data(g.get(), "bias", "/first_map/bias", n_first);
        const auto connector = r.req_text(g.get(), "connector", "/first_map");
        if (connector == "convolution") net.first_map = r.convolution(g.get(), "/first_map");
        else if (connector == "all_to_all") {
            net.first_map = snn::all_to_all{};
            net.first_weights = r.data(g.get(), "weights", "/first_map/weights", static_cast<std::size_t>(-1));
            if (!net.first_weights.empty() && net.first_weights.size() != net.image_size() * n_first)
                throw file_format_error(path, "/first_map/weights", "expected " + std::to_string(net.image_size() * n_first) + " values");
        } else throw file_format_error(path, "/first_map attribute 'connector'", "unknown connector '" + connector + "'");
    }
    return c;
}

}  // namespace volley::convert
