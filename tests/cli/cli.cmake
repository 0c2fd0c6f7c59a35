volley_test(test_cli cli/test_cli.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_cli volley)
