# hw_models tests: RISP, the TENNLab network JSON and the processor_tool interpreter.
if(TARGET volley::hw)
  volley_test(test_risp_hw
    unit/test_risp_json.cpp
    unit/test_risp_params.cpp
    unit/test_risp_processor.cpp
    unit/test_risp_reference_model.cpp
    unit/test_risp_tool.cpp
    LIBS volley::hw volley_hw_private)

  # The 20 reference vectors, byte for byte, through the `volley risp` binary.
  add_test(NAME risp_reference_vectors
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/data/risp-vectors/check.sh -q "$<TARGET_FILE:volley> risp")
  set_tests_properties(risp_reference_vectors PROPERTIES
    TIMEOUT 120 PASS_REGULAR_EXPRESSION "20 passed, 0 failed")
endif()

# The bridge to the engine: random networks on RISP and on the engine.
if(TARGET volley::hw)
  volley_test(test_risp_bridge unit/test_risp_bridge.cpp LIBS volley::hw)
  volley_test(test_risp_costs unit/test_risp_costs.cpp LIBS volley::hw)
endif()
