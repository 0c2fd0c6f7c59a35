# DANNA tests (issue 6): danna2, the element grid, place and route, danna2.net, the RISP
# bridge and the `volley danna` interpreter mode.
if(TARGET volley::danna)
  volley_test(test_danna
    unit/test_danna_danna2.cpp
    unit/test_danna_grid.cpp
    unit/test_danna_equivalence.cpp
    unit/test_danna_net_format.cpp
    unit/test_danna_risp_bridge.cpp
    unit/test_danna_tool.cpp
    LIBS volley::danna volley_danna_private)
endif()
