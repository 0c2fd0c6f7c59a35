# bench/mpi: the cost of MPI_Allgatherv on this machine (the constants of the exchange model in
# bench/mpi/README.md). Built where Volley is built with MPI.
if(VOLLEY_HAVE_MPI)
  add_executable(bench_mpi_allgatherv mpi/allgatherv_cost.cpp)
  target_link_libraries(bench_mpi_allgatherv PRIVATE MPI::MPI_CXX)
endif()
