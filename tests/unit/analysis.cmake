# Unit tests of the spike-train analysis library (snn/src/analysis, docs/analysis.md). The
# Elephant / PySpike reference values are a committed fixture: no Python at test time.
volley_test(test_spike_statistics unit/test_spike_statistics.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
volley_test(test_spike_population unit/test_spike_population.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
volley_test(test_spike_distances unit/test_spike_distances.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
volley_test(test_analysis_plots unit/test_analysis_plots.cpp LIBS volley::snn)
volley_test(test_analyse_cli cli/test_analyse_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_analyse_cli volley)
