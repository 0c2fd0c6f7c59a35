# Unit tests of EONS (eons/, docs/eons.md): config, operators (loaded into a real RISP
# processor), determinism across thread counts, checkpoints, optimisation of known optima.
volley_test(test_eons unit/test_eons_config.cpp unit/test_eons_operators.cpp unit/test_eons_evolution.cpp
  LIBS volley::eons volley::hw volley::snn nlohmann_json::nlohmann_json)
