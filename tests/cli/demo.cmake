# `volley demo` (apps/cmd_demo.cpp): tiny end-to-end runs on Fashion-MNIST.
volley_test(test_demo cli/test_demo.cpp LIBS volley::snn nlohmann_json::nlohmann_json hdf5::hdf5)
add_dependencies(test_demo volley)
