# install_package: installs this build into a scratch prefix, then builds and runs consumers
# against it with find_package(volley) (tests/install/check_install.cmake). Needs the libraries
# and the `volley` command built, as after a full `cmake --build`.
set(volley_consumer_flags "")
if(VOLLEY_SANITIZE)
  set(volley_consumer_flags "-fsanitize=address,undefined")
endif()
add_test(NAME install_package
  COMMAND ${CMAKE_COMMAND}
    -DVOLLEY_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DVOLLEY_BINARY_DIR=${PROJECT_BINARY_DIR}
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/install_package
    -DCONSUMER_GENERATOR=${CMAKE_GENERATOR}
    -DCONSUMER_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DCONSUMER_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DCONSUMER_CXX_FLAGS=${volley_consumer_flags}
    "-DVOLLEY_PYTHON=$<$<BOOL:${VOLLEY_HAVE_PYTHON}>:${Python3_EXECUTABLE}>"
    -DVOLLEY_PYTHON_DIR=${VOLLEY_PYTHON_INSTALL_DIR}
    -DVOLLEY_PYTHON_PRELOAD=${volley_sanitizer_preload}
    -P ${CMAKE_CURRENT_LIST_DIR}/check_install.cmake)
set_tests_properties(install_package PROPERTIES TIMEOUT 600 ENVIRONMENT OMP_WAIT_POLICY=PASSIVE)
