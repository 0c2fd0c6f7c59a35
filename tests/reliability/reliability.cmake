# Reliability (docs/errors.md): inputs an attacker would try, each refused with a typed
# error naming the file, the object and the value.
volley_test(test_reliability reliability/test_deep_json.cpp reliability/test_thread_limit.cpp LIBS volley::snn nlohmann_json::nlohmann_json)
add_dependencies(test_reliability volley)
