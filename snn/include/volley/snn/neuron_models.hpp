#pragma once
// The neuron models of the engine. Linear models are integrated exactly with precomputed
// propagators (Rotter & Diesmann 1999), so there is no integration error at grid points.
//
// Units: voltages in mV, times in ms. Currents use the voltage-scaled convention of Brian2's
// CUBA example: a current is given as R·I in mV, so a synaptic weight of 1.62 raises the
// synaptic current variable by 1.62 mV and a DC current of 15 mV drives v towards v_rest + 15.

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <volley/snn/ode_integrator.hpp>

namespace volley::snn {

/// Leaky integrate-and-fire neuron with delta-current synapses: a spike of weight w [mV] makes
/// v jump by w. dv/dt = (-(v - v_rest) + i_e) / tau_m. Inputs arriving while refractory are lost.
struct lif_delta {
    struct params {
        double tau_m_ms = 10;     ///< membrane time constant [ms], > 0
        double v_rest_mv = -70;   ///< resting potential [mV]
        double v_reset_mv = -70;  ///< reset potential [mV], < v_thresh_mv
        double v_thresh_mv = -55; ///< spike threshold [mV]; a spike when v >= v_thresh
        double t_ref_ms = 2;      ///< absolute refractory period [ms], >= 0
        double i_e_mv = 0;        ///< constant bias current, as R·I [mV]
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    friend bool operator==(const lif_delta&, const lif_delta&) = default;
};

/// Current-based LIF with exponentially decaying synaptic currents (the CUBA model):
/// dv/dt = (-(v - v_rest) + i_syn_e + i_syn_i + i_e) / tau_m, di_syn_x/dt = -i_syn_x / tau_syn_x.
struct lif_exp {
    struct params {
        double tau_m_ms = 20;
        double tau_syn_e_ms = 5;   ///< excitatory synaptic time constant [ms], > 0
        double tau_syn_i_ms = 10;  ///< inhibitory synaptic time constant [ms], > 0
        double v_rest_mv = -49;
        double v_reset_mv = -60;
        double v_thresh_mv = -50;
        double t_ref_ms = 5;
        double i_e_mv = 0;
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    friend bool operator==(const lif_exp&, const lif_exp&) = default;
};

/// Current-based LIF with alpha-shaped synaptic currents: a spike of weight w gives
/// i_syn(t) = w · (t/tau_syn) · exp(1 - t/tau_syn), which peaks at w when t = tau_syn.
struct lif_alpha {
    struct params {
        double tau_m_ms = 20;
        double tau_syn_e_ms = 2;
        double tau_syn_i_ms = 2;
        double v_rest_mv = -70;
        double v_reset_mv = -70;
        double v_thresh_mv = -55;
        double t_ref_ms = 2;
        double i_e_mv = 0;
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    friend bool operator==(const lif_alpha&, const lif_alpha&) = default;
};

/// Conductance-based LIF with exponentially decaying conductances (NEST `iaf_cond_exp`):
/// C dv/dt = -g_L (v - E_L) - g_e (v - E_ex) - g_i (v - E_in) + I_e + I_stim,
/// dg_x/dt = -g_x / tau_syn_x. A synaptic weight is a conductance jump [nS] on the receptor's
/// g (excitatory or inhibitory); weights must be >= 0. Stimulus currents are in pA. While
/// refractory v is clamped at v_reset and the conductances keep evolving. `integrator` chooses
/// the scheme (ode_integrator.hpp; every scheme but half_step_euler).
struct lif_cond_exp {
    struct params {
        double c_m_pf = 250;           ///< membrane capacitance [pF], > 0
        double g_l_ns = 16.6667;       ///< leak conductance [nS], > 0
        double e_l_mv = -70;           ///< leak reversal potential [mV]
        double v_reset_mv = -60;       ///< reset potential [mV], < v_thresh_mv
        double v_thresh_mv = -55;      ///< spike threshold [mV]; a spike when v crosses it upwards
        double t_ref_ms = 2;           ///< refractory period [ms], >= 0
        double e_ex_mv = 0;            ///< excitatory reversal potential [mV]
        double e_in_mv = -85;          ///< inhibitory reversal potential [mV]
        double tau_syn_e_ms = 0.2;     ///< excitatory conductance time constant [ms], > 0
        double tau_syn_i_ms = 2;       ///< inhibitory conductance time constant [ms], > 0
        double i_e_pa = 0;             ///< constant bias current [pA]
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    ode_integrator integrator{.scheme = ode_scheme::rk4};  ///< docs/integrators.md, "Defaults"
    friend bool operator==(const lif_cond_exp&, const lif_cond_exp&) = default;
};

/// Conductance-based LIF with alpha-shaped conductances (NEST `iaf_cond_alpha`): as
/// lif_cond_exp, but a spike of weight w [nS] gives g(t) = w (t/tau) exp(1 - t/tau), which
/// peaks at w when t = tau.
struct lif_cond_alpha {
    using params = lif_cond_exp::params;
    params p;
    ode_integrator integrator{.scheme = ode_scheme::rk4};  ///< every scheme but half_step_euler
    friend bool operator==(const lif_cond_alpha&, const lif_cond_alpha&) = default;
};

/// The Izhikevich (2003) model: dv/dt = 0.04 v^2 + 5 v + 140 - u + I, du/dt = a (b v - u);
/// when v reaches v_peak (30 mV): v = c, u += d. v in mV, t in ms; I (i_e and stimulus
/// currents) in the paper's units (mV/ms). Synapses are delta: a weight w [mV] makes v jump by w.
/// Initial state v = -65 mV, u = b v, as in the paper's code.
struct izhikevich {
    struct params {
        double a = 0.02;            ///< recovery rate [1/ms], > 0
        double b = 0.2;             ///< sensitivity of u to v (dimensionless)
        double c_mv = -65;          ///< reset of v [mV], < v_peak_mv
        double d = 8;               ///< jump of u at a spike [mV/ms]
        double v_peak_mv = 30;      ///< spike cut-off [mV]
        double i_e = 0;             ///< constant input I [mV/ms]
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    ode_integrator integrator{.abs_tol = 1e-9, .rel_tol = 1e-9};  ///< all but exponential_euler
    /// The firing classes of Izhikevich (2003), Fig. 2: "RS" (regular spiking), "IB"
    /// (intrinsically bursting), "CH" (chattering), "FS" (fast spiking), "LTS" (low-threshold
    /// spiking). Throws unknown_name for any other name.
    static izhikevich preset(const std::string& name);
    friend bool operator==(const izhikevich&, const izhikevich&) = default;
};

/// Adaptive exponential integrate-and-fire (Brette & Gerstner 2005), with exponential
/// conductance synapses as NEST's `aeif_cond_exp`:
/// C dv/dt = -g_L (v - E_L) + g_L Delta_T exp((v - V_T)/Delta_T) - w - g_e (v - E_ex)
///           - g_i (v - E_in) + I_e, tau_w dw/dt = a (v - E_L) - w;
/// when v reaches v_peak: v = v_reset, w += b, and v is clamped for t_ref. Weights are
/// conductance jumps [nS] (>= 0); stimulus currents are in pA.
struct adex {
    struct params {
        double c_m_pf = 281;        ///< membrane capacitance [pF], > 0
        double g_l_ns = 30;         ///< leak conductance [nS], > 0
        double e_l_mv = -70.6;      ///< leak reversal potential [mV]
        double v_t_mv = -50.4;      ///< exponential threshold V_T [mV]
        double delta_t_mv = 2;      ///< slope factor Delta_T [mV], > 0
        double a_ns = 4;            ///< subthreshold adaptation [nS]
        double tau_w_ms = 144;      ///< adaptation time constant [ms], > 0
        double b_pa = 80.5;         ///< spike-triggered adaptation [pA]
        double v_reset_mv = -70.6;  ///< reset potential [mV], < v_peak_mv
        double v_peak_mv = 0;       ///< spike cut-off [mV]
        double t_ref_ms = 0;        ///< refractory period [ms], >= 0
        double e_ex_mv = 0;         ///< excitatory reversal potential [mV]
        double e_in_mv = -85;       ///< inhibitory reversal potential [mV]
        double tau_syn_e_ms = 0.2;  ///< excitatory conductance time constant [ms], > 0
        double tau_syn_i_ms = 2;    ///< inhibitory conductance time constant [ms], > 0
        double i_e_pa = 0;          ///< constant bias current [pA]
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    ode_integrator integrator{.abs_tol = 1e-9, .rel_tol = 1e-9};  ///< adaptive, rk4, rk2, euler
    /// The firing patterns of Naud et al. (2008), Table 1: "tonic" (Fig. 4a), "adapting"
    /// (4b), "bursting" (regular bursting, 4d), "irregular" (4h), each with i_e_pa set to the
    /// table's step current. Throws unknown_name for any other name.
    static adex preset(const std::string& name);
    friend bool operator==(const adex&, const adex&) = default;
};

/// AdEx with alpha-shaped conductances (NEST `aeif_cond_alpha`, PyNN's EIF_cond_alpha_isfa_ista):
/// adex's membrane and adaptation, and a spike of weight w [nS] gives g(t) = w (t/tau)
/// exp(1 - t/tau), as lif_cond_alpha. The parameters are adex's.
struct adex_alpha {
    using params = adex::params;
    params p;
    ode_integrator integrator{.abs_tol = 1e-9, .rel_tol = 1e-9};  ///< adaptive, rk4, rk2, euler
    friend bool operator==(const adex_alpha&, const adex_alpha&) = default;
};

/// Hodgkin-Huxley neuron with Traub-Miles kinetics and exponential conductance synapses, as in
/// Brian2's COBAHH example (Brette et al. 2007, benchmark 3); defaults are that example's
/// (membrane area 20000 um^2). A spike is an upward crossing of v_spike_mv; a new spike is not
/// detected for t_ref_ms after one (v is never reset). Weights are conductance jumps [nS].
struct hh {
    struct params {
        double c_m_pf = 200;        ///< membrane capacitance [pF], > 0
        double g_l_ns = 10;         ///< leak conductance [nS], >= 0
        double e_l_mv = -60;        ///< leak reversal potential [mV]
        double g_na_ns = 20000;     ///< peak sodium conductance [nS], >= 0
        double g_k_ns = 6000;       ///< peak delayed-rectifier potassium conductance [nS], >= 0
        double e_na_mv = 50;        ///< sodium reversal potential [mV]
        double e_k_mv = -90;        ///< potassium reversal potential [mV]
        double v_t_mv = -63;        ///< offset V_T of the rate functions [mV]
        double e_ex_mv = 0;         ///< excitatory reversal potential [mV]
        double e_in_mv = -80;       ///< inhibitory reversal potential [mV]
        double tau_syn_e_ms = 5;    ///< excitatory conductance time constant [ms], > 0
        double tau_syn_i_ms = 10;   ///< inhibitory conductance time constant [ms], > 0
        double v_spike_mv = -20;    ///< spike detection threshold [mV]
        double t_ref_ms = 3;        ///< dead time of spike detection [ms], >= 0
        double i_e_pa = 0;          ///< constant bias current [pA]
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    ode_integrator integrator{.scheme = ode_scheme::exponential_euler, .abs_tol = 1e-5, .rel_tol = 1e-5};  ///< every scheme but half_step_euler
    friend bool operator==(const hh&, const hh&) = default;
};

/// A population of independent Poisson spike sources, active on (start_ms, stop_ms]. With a
/// dead time or a gamma shape other than 1 each is a renewal process of mean rate rate_hz whose
/// intervals are dead_time_ms plus a gamma variate of shape gamma_shape (an exponential when it
/// is 1: NEST's poisson_generator_ps with dead_time, PyNN's SpikeSourcePoissonRefractory; without
/// dead time PyNN's SpikeSourceGamma with alpha = gamma_shape, beta = gamma_shape·rate_hz); the
/// process starts as if a spike (not sent) had come at start_ms.
struct poisson_source {
    struct params {
        double rate_hz = 10;  ///< mean rate [Hz], >= 0
        double start_ms = 0;  ///< no spike at or before this time [ms]
        double stop_ms = std::numeric_limits<double>::infinity();  ///< nor after this one [ms]
        double dead_time_ms = 0;  ///< [ms] >= 0, with rate_hz·dead_time_ms < 1 s
        double gamma_shape = 1;   ///< > 0
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    friend bool operator==(const poisson_source&, const poisson_source&) = default;
};

/// A population of sources that fire at given times: spike_times_ms[i] are neuron i's spike
/// times [ms], each finite and > 0, in ascending order, on the dt grid or off it. A time off
/// the grid is recorded as given; grid-timed neurons receive it at the end of the step that
/// holds it, (k - 1)·dt < t <= k·dt (NEST's convention for precise spikes into grid neurons).
struct spike_source {
    std::vector<std::vector<double>> spike_times_ms;
    friend bool operator==(const spike_source&, const spike_source&) = default;
};

/// The discrete-time neuron of NIR (I, IF, LI, LIF, CubaLI, CubaLIF) and of CNN conversion.
/// Dimensionless voltages; time constants in ms. One step of length dt, with `in` the weighted
/// sum of the spikes and analog values arriving this step and u = w_in·(in + i_bias):
///   synaptic stage (tau_syn_ms > 0): euler i += dt/tau_syn·(u - i);  exact i = u + (i - u)·e^{-dt/tau_syn}
///                                    drive = i (the new value);  without it drive = u;
///   membrane, leaky (tau_mem_ms finite): euler v += dt/tau_mem·(v_leak - v + r·drive);
///                                    exact: the exact solution over the step with u held constant;
///   membrane, no leak (tau_mem_ms = inf): v += r·drive (both modes; I and IF count in steps).
/// An input gain r·dt/tau_mem (euler) or r within 8·2^-24 of 1 counts as 1: a float32 file
/// cannot say otherwise (docs/nir.md, "Threshold ties").
/// Then a spike when v > v_threshold, and the reset (reset_mode). The initial v is v_leak
/// unless set with network::initialise(pop, "v", ...). See docs/nir.md.
struct discrete_neuron {
    /// What a spike does to v; the reset conventions of the frameworks that write NIR
    /// (docs/nir.md, "Reset conventions"). With v_old the v that the last step left and v the
    /// value after this step's leak and input:
    enum class reset_mode : std::uint8_t {
        to_v_reset,          ///< at the spike v = v_reset (Volley, Norse; snnTorch reset "zero")
        subtract,            ///< at the spike v -= v_threshold (Sinabs)
        subtract_delayed,    ///< v -= v_threshold on the step after (v_old > v_threshold), after the
                             ///< leak, before the test; v keeps its value at the spike (snnTorch
                             ///< "subtract", reset_delay=True: U[t] = βU[t−1] + I[t] − θ·S[t−1])
        subtract_no_delay,   ///< at the spike v -= v_threshold, and when v_old is still above
                             ///< v_threshold the test is v - v_threshold > v_threshold (snnTorch
                             ///< "subtract", reset_delay=False)
        to_v_reset_delayed,  ///< v = v_reset instead of this step's value on the step after
                             ///< (v_old > v_threshold): that step's input is lost (snnTorch RLeaky
                             ///< "zero", reset_delay=True)
        none,                ///< no reset (snnTorch "none")
    };
    enum class integration : std::uint8_t { euler, exact };
    struct params {
        double tau_mem_ms = std::numeric_limits<double>::infinity();  ///< [ms] > 0; inf: no leak (I, IF)
        double tau_syn_ms = 0;  ///< [ms] >= 0; 0: no synaptic-current stage
        double r = 1;           ///< input resistance (dimensionless)
        double v_leak = 0;      ///< resting potential
        double v_threshold = 1; ///< spike when v > v_threshold; inf: never spikes (I, LI, CubaLI)
        double v_reset = 0;     ///< v after a spike (to_v_reset)
        double w_in = 1;        ///< input weight
        double i_bias = 0;      ///< constant input every step (per-neuron overridable)
        friend bool operator==(const params&, const params&) = default;
    };
    params p;
    reset_mode reset = reset_mode::to_v_reset;
    integration method = integration::euler;
    friend bool operator==(const discrete_neuron&, const discrete_neuron&) = default;
};

/// A population of analog sources: each step every neuron with a non-zero value delivers it
/// like a spike whose synaptic weights are multiplied by the value. values[step][neuron];
/// zero after the table ends. |values| <= 1e6 (the fixed-point range of the ring buffer).
struct analog_source {
    std::vector<std::vector<double>> values;
    friend bool operator==(const analog_source&, const analog_source&) = default;
};

/// Every neuron model the engine knows.
using neuron_model = std::variant<lif_delta, lif_exp, lif_alpha, poisson_source, spike_source, discrete_neuron,
                                  analog_source, lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh, adex_alpha>;

/// File names of the discrete_neuron enums: "to_v_reset", "subtract", "subtract_delayed",
/// "subtract_no_delay", "to_v_reset_delayed", "none"; "euler"/"exact".
std::string reset_mode_name(discrete_neuron::reset_mode m);
std::string integration_name(discrete_neuron::integration m);
/// Every reset mode, in declaration order.
std::vector<discrete_neuron::reset_mode> reset_modes();
/// Parses the names above; throws invalid_parameter naming `object` otherwise.
discrete_neuron::reset_mode reset_mode_from_name(const std::string& name, const std::string& object);
discrete_neuron::integration integration_from_name(const std::string& name, const std::string& object);

/// Description of one model parameter, for validation, files and docs.
struct parameter_info {
    const char* name;    ///< e.g. "tau_m_ms"
    const char* unit;    ///< e.g. "ms"
    double lower_bound;  ///< the smallest valid value (-inf when unbounded)
    bool lower_strict;   ///< true when the value must be strictly greater than lower_bound
};

/// The model's name as used in files and on the command line: "lif_exp", ...
std::string model_name(const neuron_model& m);

/// A default-constructed model of the given name; throws unsupported_model if there is none.
neuron_model model_from_name(const std::string& name);

/// The model's scalar parameters, in declaration order.
std::span<const parameter_info> model_parameters(const neuron_model& m);
/// The names of model_parameters(m), comma-separated (for messages).
std::string parameter_names(const neuron_model& m);

/// The model's state variables, which can be initialised and recorded ("v_mv", ...).
std::span<const char* const> model_state_variables(const neuron_model& m);

/// Reads a scalar parameter by name; throws unknown_name when the model has none of that name.
double get_parameter(const neuron_model& m, const std::string& name);

/// Sets a scalar parameter by name; throws unknown_name when the model has none of that name.
void set_parameter(neuron_model& m, const std::string& name, double value);

/// True for models that only emit spikes (Poisson, spike arrays, analog): they cannot be targets.
bool is_source_model(const neuron_model& m);

/// Checks one parameter value against its bounds; throws invalid_parameter naming `object`.
void check_parameter(const neuron_model& m, const std::string& name, double value,
                     const std::string& object);
/// The same for a parameter already looked up (one lookup for a list of values).
void check_parameter(const parameter_info& info, double value, const std::string& object);

/// The largest magnitude of an analog_source value.
inline constexpr double max_analog_value = 1e6;

/// Checks an analog_source table (finite, |value| <= max_analog_value); throws
/// invalid_parameter naming `object` and the element.
void check_analog_values(const std::vector<std::vector<double>>& values, const std::string& object);

/// The backends that can run the model ("cpu"; the GPU backend is not built yet).
std::span<const char* const> model_backends(const neuron_model& m);

/// True for the ODE models (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh): the CPU
/// backend runs them in its ODE population, with the scheme of their `integrator`.
bool is_ode_model(const neuron_model& m);

/// The model's integrator, or nullptr when it has none (not an ODE model).
const ode_integrator* model_integrator(const neuron_model& m);
ode_integrator* model_integrator(neuron_model& m);

/// The schemes the model supports (empty for a model that is not an ODE model).
std::span<const ode_scheme> model_schemes(const neuron_model& m);

/// Checks an ODE model's integrator (scheme supported: unsupported_model; tolerances in (0, 1):
/// invalid_parameter), naming `object`; nothing for other models.
void check_integrator(const neuron_model& m, const std::string& object);

/// Checks every parameter of the model, and that the reset lies below the threshold
/// (v_reset_mv < v_thresh_mv, c_mv < v_peak_mv, v_reset_mv < v_peak_mv); throws invalid_parameter.
/// For an ODE model, also that its scheme is one it supports (unsupported_model) and that the
/// tolerances are > 0 (invalid_parameter).
void validate_model(const neuron_model& m, const std::string& object);

}  // namespace volley::snn
