// Named parameter sets of the Izhikevich and AdEx models, from the papers that introduced them.

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <array>

namespace volley::snn {

namespace {

struct izhikevich_row {
    const char* name;
    double a, b, c, d;
};

// Izhikevich (2003), IEEE Trans. Neural Netw. 14:1569, Fig. 2.
constexpr std::array<izhikevich_row, 5> izhikevich_table{{
    {"RS", 0.02, 0.2, -65, 8},
    {"IB", 0.02, 0.2, -55, 4},
    {"CH", 0.02, 0.2, -50, 2},
    {"FS", 0.1, 0.2, -65, 2},
    {"LTS", 0.02, 0.25, -65, 2},
}};

struct adex_row {
    const char* name;
    double c_m, g_l, e_l, v_t, delta_t, a, tau_w, b, v_reset, i;
};

// Naud, Marcille, Clopath & Gerstner (2008), Biol. Cybern. 99:335, Table 1: C [pF], g_L [nS],
// E_L, V_T, Delta_T [mV], a [nS], tau_w [ms], b [pA], V_r [mV], I [pA]. V_peak = 0 mV. The values
// are those of the Brian2 example of the paper (examples/frompapers, Naud et al. 2008, whose
// header notes they were adjusted to match the paper's figures).
constexpr std::array<adex_row, 4> adex_table{{
    {"tonic", 200, 10, -70, -50, 2, 2, 30, 0, -58, 500},          // Fig. 4a
    {"adapting", 200, 12, -70, -50, 2, 2, 300, 60, -58, 500},     // Fig. 4b
    {"bursting", 200, 10, -58, -50, 2, 2, 120, 100, -46, 210},    // Fig. 4d, regular bursting
    {"irregular", 100, 12, -60, -50, 2, -11, 130, 30, -48, 160},  // Fig. 4h
}};

template <class Table>
std::string known_names(const Table& t) {
    std::string s;
    for (const auto& row : t) s += (s.empty() ? "" : ", ") + std::string(row.name);
    return s;
}

}  // namespace

izhikevich izhikevich::preset(const std::string& name) {
    for (const auto& row : izhikevich_table)
        if (name == row.name)
            return izhikevich{.p = {.a = row.a, .b = row.b, .c_mv = row.c, .d = row.d}};
    throw unknown_name("preset", name,
                       "izhikevich::preset (known: " + known_names(izhikevich_table) + ")");
}

adex adex::preset(const std::string& name) {
    for (const auto& row : adex_table)
        if (name == row.name) {
            adex m;
            m.p.c_m_pf = row.c_m;
            m.p.g_l_ns = row.g_l;
            m.p.e_l_mv = row.e_l;
            m.p.v_t_mv = row.v_t;
            m.p.delta_t_mv = row.delta_t;
            m.p.a_ns = row.a;
            m.p.tau_w_ms = row.tau_w;
            m.p.b_pa = row.b;
            m.p.v_reset_mv = row.v_reset;
            m.p.v_peak_mv = 0;
            m.p.t_ref_ms = 0;
            m.p.i_e_pa = row.i;
            return m;
        }
    throw unknown_name("preset", name, "adex::preset (known: " + known_names(adex_table) + ")");
}

}  // namespace volley::snn
