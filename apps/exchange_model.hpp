#pragma once
// The modelled spike exchange of a projected rank (`volley bench hpc --project-ranks`,
// bench/mpi/README.md): the rank's measured work plus an MPI_Allgatherv whose time a latency +
// bandwidth model gives, for cluster sizes this machine cannot run.

#include <volley/snn/distributed_context.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>

namespace volley::cli {

/// The constants of the model (bench/mpi/README.md gives the ones measured on this machine).
struct exchange_model {
    double latency_s = 2e-6;            ///< per message step
    double bandwidth_bytes_s = 12.5e9;  ///< per link (100 Gb/s)
};

/// One MPI_Allgatherv of `bytes` in all (every rank's part) on `ranks` ranks, by recursive
/// doubling (each rank receives the other ranks' share in ceil(log2 ranks) steps):
/// latency * ceil(log2 ranks) + bytes * (ranks - 1) / ranks / bandwidth; 0 on one rank.
double allgatherv_s(const exchange_model& m, int ranks, std::uint64_t bytes);

/// The figures of a projected run (a JSON object, "projection" in `--json`): what the rank
/// measured (its work: `sim_s` less the mirroring), the spike volume per epoch, and the
/// modelled exchange and simulation time, each name saying "modelled" where it is.
nlohmann::json projection_figures(const snn::projection_record& rec, int ranks, const exchange_model& m, double sim_s,
                                  double bio_s);

}  // namespace volley::cli
