# The Python tests: plain scripts run by the interpreter the module was built for
# (Python3_EXECUTABLE), with the build tree's package on PYTHONPATH. A script that lacks a peer
# (NumPy, PyNN, NEST) exits 77 and is reported as skipped.
if(NOT VOLLEY_HAVE_PYTHON)
  return()
endif()

# Under VOLLEY_SANITIZE the sanitizer runtimes are preloaded (tests/CMakeLists.txt).
set(volley_python_sanitizer_env "")
if(volley_sanitizer_preload)
  set(volley_python_sanitizer_env ";LD_PRELOAD=${volley_sanitizer_preload};ASAN_OPTIONS=detect_leaks=0")
endif()

# volley_python_test(<name> <script> [ARGS ...]): one ctest test, python_<name>.
function(volley_python_test name script)
  cmake_parse_arguments(ARG "" "TIMEOUT" "ARGS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  add_test(NAME python_${name} COMMAND ${Python3_EXECUTABLE} ${script} ${ARG_ARGS}
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(python_${name} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT ${ARG_TIMEOUT}
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python:${CMAKE_CURRENT_SOURCE_DIR}/python;VOLLEY_CLI=$<TARGET_FILE:volley>;VOLLEY_TEST_DATA_DIR=${CMAKE_CURRENT_SOURCE_DIR}/data;OMP_WAIT_POLICY=PASSIVE;PYTHONDONTWRITEBYTECODE=1${volley_python_sanitizer_env}")
endfunction()

set(volley_python_tests lif_analytic cuba errors interrupt checkpoint recorded_run views risp files analysis convert pynn pynn_stdp pynn_brunel pynn_coba pynn_set pynn_currents pynn_point_neuron pynn_rng pynn_quantal nest_tsodyks nest_quantal nest_offgrid pynn_poisson_sampling record_weights models microcircuit tasks readme)
foreach(t IN LISTS volley_python_tests)
  volley_python_test(${t} ${CMAKE_CURRENT_SOURCE_DIR}/python/test_${t}.py)
endforeach()
# volley.pipeline against `volley demo` (both at a small size; skipped without Fashion-MNIST).
volley_python_test(pipeline ${CMAKE_CURRENT_SOURCE_DIR}/python/test_pipeline.py TIMEOUT 900)
set(run_example ${CMAKE_CURRENT_SOURCE_DIR}/python/run_example.py)
volley_python_test(example_cuba ${run_example} ARGS ${PROJECT_SOURCE_DIR}/examples/python/cuba.py)
volley_python_test(example_cuba_pynn ${run_example} ARGS --requires pyNN ${PROJECT_SOURCE_DIR}/examples/python/cuba_pynn.py)
# PyNN's own system tests (test/system/scenarios of its sdist, which `scripts/setup --peers`
# unpacks; VOLLEY_PYNN_SOURCE, passed on from the environment, names another tree) on
# volley.pynn, against the list of known failures in the script (docs/python.md, "PyNN's system
# tests"). Skipped without PyNN, pytest or the tree.
volley_python_test(pynn_scenarios ${CMAKE_CURRENT_SOURCE_DIR}/python/pynn_scenarios.py TIMEOUT 300)
