# STDP plasticity (docs/plasticity.md): rules against their definitions, the engine's plastic
# synapses (determinism, weights API, HDF5, JSON, CLI) and the drift under Poisson input.
volley_test(test_stdp_rules unit/test_stdp_rules.cpp LIBS volley::snn)
volley_test(test_stdp_engine unit/test_stdp_engine.cpp LIBS volley::snn)
volley_test(test_stdp_drift validation/test_stdp_drift.cpp LIBS volley::snn)
# NEST's hpc_benchmark (power-law STDP on E -> E): J_E, the EPSP, the wiring, `volley bench hpc`.
volley_test(test_hpc_benchmark unit/test_hpc_benchmark.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
volley_test(test_tsodyks_markram validation/test_tsodyks_markram.cpp LIBS volley::snn)
volley_test(test_stochastic_release unit/test_stochastic_release.cpp LIBS volley::snn)
volley_test(test_quantal_release unit/test_quantal_release.cpp LIBS volley::snn)
