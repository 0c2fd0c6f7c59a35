# Reliability (docs/errors.md): inputs an attacker would try, each refused with a typed
# error naming the file, the object and the value.
volley_test(test_reliability reliability/test_deep_json.cpp reliability/test_thread_limit.cpp reliability/test_run_length.cpp
            LIBS volley::snn nlohmann_json::nlohmann_json)
target_compile_definitions(test_reliability PRIVATE VOLLEY_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data")
add_dependencies(test_reliability volley)
