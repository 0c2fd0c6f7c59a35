# bench/macro/train: accuracy, the LARS large-batch experiment and training throughput (issue 7).
add_executable(volley_train_bench macro/train/train_bench.cpp)
target_link_libraries(volley_train_bench PRIVATE volley::convert nlohmann_json::nlohmann_json)
