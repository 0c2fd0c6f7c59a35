# bench/macro/convert: the conversion of the reference CNN on the full test set (issue 8).
add_executable(volley_convert_bench macro/convert/convert_bench.cpp)
target_link_libraries(volley_convert_bench PRIVATE volley::convert hdf5::hdf5)
target_compile_definitions(volley_convert_bench PRIVATE VOLLEY_REFERENCE_MODEL="${PROJECT_SOURCE_DIR}/tests/data/convert/fmnist_small_torch.h5")
