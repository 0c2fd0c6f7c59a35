# cmake -P script run by the install_package test (tests/install/install.cmake):
#  1. `cmake --install` the build into WORK_DIR/prefix;
#  2. checks the installed headers include only installed headers, and that the package files
#     name no path of the source or build tree;
#  3. configures examples/ on its own against the prefix, builds example_cuba, runs it and checks
#     its output; then does the same for tests/install/consumer, which includes every installed
#     header and links volley::snn, volley::hw, volley::danna and volley::convert;
#  4. with VOLLEY_PYTHON (the interpreter the module was built for), imports the installed volley
#     package from the prefix and runs a network with it;
#  5. checks neither consumer was compiled with an include directory of the source or build tree.
foreach(var VOLLEY_SOURCE_DIR VOLLEY_BINARY_DIR WORK_DIR CONSUMER_GENERATOR CONSUMER_CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONSUMER_BUILD_TYPE)
  set(CONSUMER_BUILD_TYPE Release)
endif()

# run(<what> <command...>): runs the command, fails the test with its output if it fails; its
# standard output is left in run_output.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${VOLLEY_BINARY_DIR} --prefix ${prefix})

file(GLOB_RECURSE config_file ${prefix}/*/volleyConfig.cmake)
file(GLOB_RECURSE version_file ${prefix}/*/volleyConfigVersion.cmake)
if(NOT config_file OR NOT version_file)
  message(FATAL_ERROR "no volleyConfig.cmake and volleyConfigVersion.cmake under ${prefix}")
endif()
foreach(part snn hw danna convert)
  file(GLOB_RECURSE lib ${prefix}/*/libvolley_${part}.a)
  if(NOT lib)
    message(FATAL_ERROR "libvolley_${part}.a was not installed")
  endif()
endforeach()
foreach(file bin/volley include/volley/config.hpp include/volley/snn.hpp)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "${file} was not installed")
  endif()
endforeach()
run("the installed volley --version" ${prefix}/bin/volley --version)

if(VOLLEY_PYTHON)
  set(ENV{PYTHONPATH} ${prefix}/${VOLLEY_PYTHON_DIR})
  file(WRITE ${WORK_DIR}/check_volley.py
       "import volley\nnet = volley.Network()\nnet.add_population('a', 2, 'lif_exp')\n"
       "volley.Simulation(net).run(1.0)\nprint(volley.__file__)\n")
  set(python ${VOLLEY_PYTHON})
  if(VOLLEY_PYTHON_PRELOAD)  # a sanitized module (tests/CMakeLists.txt): its runtimes first
    set(python ${CMAKE_COMMAND} -E env LD_PRELOAD=${VOLLEY_PYTHON_PRELOAD} ASAN_OPTIONS=detect_leaks=0
               ${VOLLEY_PYTHON})
  endif()
  run("the installed Python module" ${python} ${WORK_DIR}/check_volley.py)
  string(FIND "${run_output}" "${prefix}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "import volley found ${run_output}, not the package installed in ${prefix}")
  endif()
endif()

# Installed headers: includes by quotes would be private headers, and every <volley/...> must
# itself be installed.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include ${prefix}/include/volley/*.hpp)
set(all_headers_cpp "// Every installed header, written by tests/install/check_install.cmake.\n")
foreach(header IN LISTS headers)
  file(STRINGS ${prefix}/include/${header} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "\"")
      message(FATAL_ERROR "installed ${header} includes a private header: ${line}")
    endif()
    if(line MATCHES "<(volley/[^>]+)>" AND NOT EXISTS ${prefix}/include/${CMAKE_MATCH_1})
      message(FATAL_ERROR "installed ${header} includes ${CMAKE_MATCH_1}, which is not installed")
    endif()
  endforeach()
  string(APPEND all_headers_cpp "#include <${header}>\n")
endforeach()
file(WRITE ${WORK_DIR}/all_headers.cpp "${all_headers_cpp}")

# The package must be relocatable: no absolute path of this tree in its files.
file(GLOB package_files ${prefix}/*/cmake/volley/*.cmake ${prefix}/*/*/cmake/volley/*.cmake)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(tree ${VOLLEY_SOURCE_DIR} ${VOLLEY_BINARY_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names a path in ${tree}")
    endif()
  endforeach()
endforeach()

# consumer(<name> <source dir> <extra cmake args...>): configures and builds a project against
# the prefix only, and checks it found this prefix's package and no include path of the tree.
function(consumer name source)
  set(build ${WORK_DIR}/${name})
  run("configuring ${name}" ${CMAKE_COMMAND} -S ${source} -B ${build} -G ${CONSUMER_GENERATOR}
      -DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER} -DCMAKE_BUILD_TYPE=${CONSUMER_BUILD_TYPE}
      "-DCMAKE_CXX_FLAGS=${CONSUMER_CXX_FLAGS}" -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${ARGN})
  file(STRINGS ${build}/CMakeCache.txt found REGEX "^volley_DIR:")
  string(REGEX REPLACE "^[^=]*=" "" found "${found}")
  get_filename_component(found "${found}" REALPATH)
  get_filename_component(expected "${config_file}" DIRECTORY)
  get_filename_component(expected "${expected}" REALPATH)
  if(NOT found STREQUAL expected)
    message(FATAL_ERROR "${name} found volley in '${found}', not in ${expected}")
  endif()
  run("building ${name}" ${CMAKE_COMMAND} --build ${build} --parallel 2)
  file(READ ${build}/compile_commands.json commands)
  foreach(dir ${VOLLEY_SOURCE_DIR}/snn/ ${VOLLEY_SOURCE_DIR}/hw_models/ ${VOLLEY_SOURCE_DIR}/danna/
      ${VOLLEY_SOURCE_DIR}/convert/ ${VOLLEY_BINARY_DIR}/generated)
    string(FIND "${commands}" "${dir}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${name} was compiled with a path of the Volley tree: ${dir}")
    endif()
  endforeach()
endfunction()

consumer(examples ${VOLLEY_SOURCE_DIR}/examples -DBUILD_TESTING=OFF)
execute_process(COMMAND ${WORK_DIR}/examples/example_cuba WORKING_DIRECTORY ${WORK_DIR}/examples
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "[0-9]+ spikes, [0-9.]+ Hz")
  message(FATAL_ERROR "example_cuba built against the installed package: exit ${rc}\n${out}\n${err}")
endif()
message(STATUS "example_cuba against the installed package: ${out}")

consumer(consumer ${CMAKE_CURRENT_LIST_DIR}/consumer -DVOLLEY_ALL_HEADERS_CPP=${WORK_DIR}/all_headers.cpp)
execute_process(COMMAND ${WORK_DIR}/consumer/all_parts RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "all volley parts linked")
  message(FATAL_ERROR "all_parts built against the installed package: exit ${rc}\n${out}\n${err}")
endif()
message(STATUS "all_parts against the installed package:\n${out}")
