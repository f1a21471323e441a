// One universe in bands of whole rows across MPI ranks (cpu-mpi, cuda-nccl). Rank r holds
// rows [first_row(r), first_row(r) + rows(r)), the bands as equal as the height allows,
// between halo rows that its neighbours fill: the rank above (r - 1) sends its last rows,
// the rank below (r + 1) its first ones, the ranks a torus (rank 0's neighbour above is the
// last rank; a single rank is its own neighbour).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::mpi {

struct Bands {
  std::int64_t height; ///< the universe's rows
  int ranks;
  int halo_steps; ///< generations between exchanges, and the halo rows above and below

  [[nodiscard]] std::int64_t first_row(int rank) const { return height * rank / ranks; }
  [[nodiscard]] std::int64_t rows(int rank) const { return first_row(rank + 1) - first_row(rank); }
  [[nodiscard]] int above(int rank) const { return (rank + ranks - 1) % ranks; }
  [[nodiscard]] int below(int rank) const { return (rank + 1) % ranks; }

  /// Why the universe cannot be split so, or nothing: a band must be at least halo_steps
  /// rows tall, as its halo comes from one neighbour.
  [[nodiscard]] std::optional<std::string> unsupported() const {
    if (ranks < 1 || halo_steps < 1) return "ranks and halo_steps must be positive";
    if (height / ranks < halo_steps) {
      return "the height " + std::to_string(height) + " does not split into " +
             std::to_string(ranks) + " bands of at least halo_steps=" + std::to_string(halo_steps) +
             " rows (a halo comes from one neighbour)";
    }
    return std::nullopt;
  }

  /// Bytes the ranks send one another per generation, all ranks together: every
  /// halo_steps generations each sends halo_steps rows up and as many down.
  [[nodiscard]] double halo_bytes_per_generation(std::int64_t row_bytes) const {
    return 2.0 * ranks * static_cast<double>(row_bytes);
  }
};

} // namespace lifebench::mpi
