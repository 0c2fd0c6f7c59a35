volley_test(test_cli cli/test_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_cli volley)
# `volley run` and `volley info` on every network file `volley convert --out` writes.
find_package(ZLIB REQUIRED)
volley_test(test_network_files_cli cli/test_network_files_cli.cpp LIBS nlohmann_json::nlohmann_json hdf5::hdf5 ZLIB::ZLIB)
add_dependencies(test_network_files_cli volley)
# `volley evolve` (docs/temporal.md).
volley_test(test_evolve_cli cli/test_evolve_cli.cpp LIBS volley::convert nlohmann_json::nlohmann_json)
add_dependencies(test_evolve_cli volley)
# `volley run --checkpoint`, `--checkpoint-every` and `--resume` (docs/engine.md, "Checkpoints").
volley_test(test_checkpoint_cli cli/test_checkpoint_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_checkpoint_cli volley)
# `volley run --integrator` (docs/integrators.md).
volley_test(test_integrator_cli cli/test_integrator_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_integrator_cli volley)
# Faults during `volley run`: a full disk, SIGKILL, resuming after a kill, hostile HDF5 input.
volley_test(test_run_faults_cli cli/test_run_faults_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_run_faults_cli volley)
target_compile_definitions(test_run_faults_cli PRIVATE VOLLEY_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# Damaged and hostile HDF5 input: a typed error, never a dead process (docs/errors.md).
volley_test(test_hostile_hdf5_cli cli/test_hostile_hdf5_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_hostile_hdf5_cli volley)
# `volley control cartpole` and `volley evolve --task cartpole` (docs/control.md).
volley_test(test_control_cli cli/test_control_cli.cpp LIBS volley::temporal nlohmann_json::nlohmann_json)
add_dependencies(test_control_cli volley)

# examples/networks: every example file runs with the command its README gives.
volley_test(test_examples_cli cli/test_examples_cli.cpp LIBS nlohmann_json::nlohmann_json)
target_compile_definitions(test_examples_cli PRIVATE VOLLEY_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(test_examples_cli volley)
