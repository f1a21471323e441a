// The rank programs' side of the MPI experiments (cpu-mpi, cuda-nccl): the main() of
// lifebench-rank-<name>, which RanksSimulator starts with mpirun as
//
//   lifebench-rank-<name> UNIVERSE.lbu GENERATIONS REPORT.json [name=value ...]
//
// Every rank reads its band (bands.hpp) from the universe file, hands it to the
// experiment's BandStepper, advances it with the others, and writes it back in place;
// rank 0 times the advance (MPI_Wtime between two barriers) and writes the report, with
// the longest and shortest over the ranks of each part of the advance the stepper times.
// A rank that fails prints one line, "lifebench: error: rank R: <why>", and aborts the
// others.
// This header needs no MPI, so that CUDA sources may implement a BandStepper.
#pragma once

#include "lifebench/experiment.hpp"
#include "mpi/bands.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>

namespace lifebench::mpi {

/// What a rank knows when its stepper is made.
struct RankContext {
  int rank = 0;
  int local_rank = 0;  ///< among the ranks of its host
  int local_ranks = 1; ///< the ranks of its host
  Problem problem;
  Params params; ///< the experiment's, as the experiment process resolved them
  Bands bands{};
  std::int64_t row_words = 0; ///< 64-bit words of a row, packed as lifebench/packed.hpp packs them

  [[nodiscard]] std::int64_t rows() const { return bands.rows(rank); }
};

/// One rank's band and the technique that advances it.
class BandStepper {
public:
  BandStepper() = default;
  BandStepper(const BandStepper&) = delete;
  BandStepper& operator=(const BandStepper&) = delete;
  virtual ~BandStepper() = default;

  /// The band's own rows (context.rows() rows of row_words words), before any advance.
  virtual void load(std::span<const std::uint64_t> rows) = 0;
  /// Advances the band `generations`, exchanging halos with the other ranks' steppers (every
  /// rank calls it at once); returns when this rank's part is done.
  virtual void advance(std::uint64_t generations) = 0;
  /// The band's own rows, after the advance.
  virtual void store(std::span<std::uint64_t> rows) = 0;
  /// Where this rank runs, for the results' device section.
  [[nodiscard]] virtual std::map<std::string, std::string> device() const = 0;
  /// Seconds this rank spent in each named part of its last advance() ("compute", "halo
  /// wait"); every rank names the same parts. The results give each part's longest and
  /// shortest over the ranks, which tell a rank that computes slower from one that waits.
  [[nodiscard]] virtual std::map<std::string, double> phase_seconds() const { return {}; }
};

using MakeStepper = std::function<std::unique_ptr<BandStepper>(const RankContext&)>;

/// Throws Error naming `call` with MPI's text of `code` unless it is MPI_SUCCESS (the ranks
/// make MPI calls return their errors).
void check_mpi(int code, const char* call);

/// The rank program's main(): runs one rank with the stepper `make` makes; returns its exit
/// status (a failure aborts every rank).
int rank_main(int argc, char** argv, const MakeStepper& make);

} // namespace lifebench::mpi
