# The engine on MPI ranks: tests/mpi/test_mpi_engine.cpp under mpirun with 1, 2, 3 and 4 ranks
# (--oversubscribe: more ranks than this machine's cores), each rank on 1 and 2 threads. Where
# Volley is built without MPI or no mpiexec is found the test is registered as skipped, with
# the reason.
if(VOLLEY_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  add_executable(test_mpi_engine mpi/test_mpi_engine.cpp)
  target_link_libraries(test_mpi_engine PRIVATE volley::snn MPI::MPI_CXX GTest::gtest)
  foreach(ranks 1 2 3 4)
    add_test(NAME mpi_engine.ranks_${ranks}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} --oversubscribe --allow-run-as-root
                     ${MPIEXEC_PREFLAGS} $<TARGET_FILE:test_mpi_engine> ${MPIEXEC_POSTFLAGS})
    # One OpenMP thread per rank unless a test asks for two; no binding to cores that are shared.
    set_tests_properties(mpi_engine.ranks_${ranks} PROPERTIES
      ENVIRONMENT "OMP_NUM_THREADS=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_hwloc_base_binding_policy=none;LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/data/sanitizers/lsan_mpi.supp:fast_unwind_on_malloc=0"
      PROCESSORS 2 TIMEOUT 600)
  endforeach()
else()
  add_test(NAME mpi_engine.skipped
           COMMAND ${CMAKE_COMMAND} -E echo "skipped: Volley is built without MPI or mpiexec was not found")
  set_tests_properties(mpi_engine.skipped PROPERTIES SKIP_REGULAR_EXPRESSION "skipped:")
endif()

# The command line under mpirun (a plain GoogleTest that starts mpiexec itself).
if(VOLLEY_HAVE_MPI AND MPIEXEC_EXECUTABLE AND TARGET volley)
  volley_test(test_mpi_cli mpi/test_mpi_cli.cpp LIBS volley::snn volley::convert nlohmann_json::nlohmann_json)
  target_compile_definitions(test_mpi_cli PRIVATE VOLLEY_MPIEXEC="${MPIEXEC_EXECUTABLE}")
endif()
