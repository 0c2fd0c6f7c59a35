# bench/mpi: the cost of the spike exchange on this machine, MPI_Allgatherv beside a targeted
# MPI_Alltoallv (bench/mpi/README.md). Built where Volley is built with MPI.
if(VOLLEY_HAVE_MPI)
  add_executable(bench_mpi_exchange mpi/exchange_cost.cpp)
  target_link_libraries(bench_mpi_exchange PRIVATE MPI::MPI_CXX)
endif()
