# Reliability (docs/errors.md): inputs an attacker would try, each refused with a typed
# error naming the file, the object and the value.
volley_test(test_reliability reliability/test_deep_json.cpp reliability/test_thread_limit.cpp reliability/test_run_length.cpp
            reliability/test_text_file.cpp
            LIBS volley::snn nlohmann_json::nlohmann_json)
target_compile_definitions(test_reliability PRIVATE VOLLEY_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data")
add_dependencies(test_reliability volley)
# Damaged and hostile HDF5 (docs/errors.md): the clean copy every reader reads, made in a child.
volley_test(test_reliability_hdf5 reliability/test_hdf5_clean_copy.cpp reliability/test_damaged_converted_network.cpp
            LIBS volley::snn hdf5::hdf5)
target_compile_definitions(test_reliability_hdf5 PRIVATE VOLLEY_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data")
add_dependencies(test_reliability_hdf5 volley)
