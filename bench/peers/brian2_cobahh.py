#!/usr/bin/python3
"""The COBAHH network in Brian2, C++ standalone mode, one thread: the peer of `volley bench cobahh`.

Brian2's COBAHH example (Brette et al. 2007, benchmark 3; Traub and Miles's Hodgkin-Huxley
neuron) as volley::snn::cobahh_network builds it (snn/src/standard_networks.cpp, model hh):
C 200 pF, g_L 10 nS, E_L -60 mV, g_Na 20 uS, g_K 6 uS, E_Na 50 mV, E_K -90 mV, V_T -63 mV,
E_ex 0 mV, E_in -80 mV, tau_e 5 ms, tau_i 10 ms, spikes detected at v > -20 mV with 3 ms
refractoriness (detection only: v is not clamped), m = n = h = 0 at the start (the example
leaves them unset), v(0) ~ N(-65, 5) mV, g_e(0) ~ N(40, 15) nS, g_i(0) ~ N(200, 120) nS, 80/20
neurons, fixed probability p = min(1, 80/N) with autapses, w_e = 6 nS, w_i = 67 nS. One
difference from the example: the delay is dt (the example has none), as in Volley's network
and the CUBA and COBA harnesses.

  brian2_cobahh.py build --neurons N --method M --dir D [--seed S] [--duration MS]
      generates and compiles D/main with integration method M (exponential_euler, the
      example's; rk4, rk2, euler); prints JSON with the code-generation + compile time
  brian2_cobahh.py summary --neurons N --duration MS --dir D
      after D/main has run: spike count, Brian's simulation time, in-degree statistics

`volley bench peers --network cobahh --integrator M` runs D/main itself, alternating with Volley.
"""
from brian2_coba import main

EQS = """
dv/dt = (gl*(El-v) + ge*(Ee-v) + gi*(Ei-v) - g_na*(m*m*m)*h*(v-ENa) - g_kd*(n*n*n*n)*(v-EK))/Cm : volt
dm/dt = alpha_m*(1-m) - beta_m*m : 1
dn/dt = alpha_n*(1-n) - beta_n*n : 1
dh/dt = alpha_h*(1-h) - beta_h*h : 1
dge/dt = -ge*(1./taue) : siemens
dgi/dt = -gi*(1./taui) : siemens
alpha_m = 0.32*(mV**-1)*4*mV/exprel((13*mV-v+VT)/(4*mV))/ms : Hz
beta_m = 0.28*(mV**-1)*5*mV/exprel((v-VT-40*mV)/(5*mV))/ms : Hz
alpha_h = 0.128*exp((17*mV-v+VT)/(18*mV))/ms : Hz
beta_h = 4./(1+exp((40*mV-v+VT)/(5*mV)))/ms : Hz
alpha_n = 0.032*(mV**-1)*5*mV/exprel((15*mV-v+VT)/(5*mV))/ms : Hz
beta_n = .5*exp((10*mV-v+VT)/(40*mV))/ms : Hz
"""


def cobahh_model(b):
    """The Traub-Miles neuron of Brian2's COBAHH example; spikes detected at -20 mV, no reset."""
    from brian2 import ms, mV, nS, pF
    ns = dict(Cm=200 * pF, gl=10 * nS, El=-60 * mV, EK=-90 * mV, ENa=50 * mV, g_na=20000 * nS, g_kd=6000 * nS,
              VT=-63 * mV, taue=5 * ms, taui=10 * ms, Ee=0 * mV, Ei=-80 * mV)
    return dict(model=b.Equations(EQS), namespace=ns, threshold="v > -20*mV", refractory=3 * ms)


if __name__ == "__main__":
    main(cobahh_model, "exponential_euler", __doc__)
