// One universe in bands of whole rows across MPI ranks (cpu-mpi, cuda-nccl). Rank r holds
// rows [first_row(r), first_row(r) + rows(r)), the bands as equal as the height allows or
// in proportion to each rank's measured speed (weighted()), between halo rows that its
// neighbours fill: the rank above (r - 1) sends its last rows,
// the rank below (r + 1) its first ones, the ranks a torus (rank 0's neighbour above is the
// last rank; a single rank is its own neighbour).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench::mpi {

struct Bands {
  std::int64_t height; ///< the universe's rows
  int ranks;
  int halo_steps; ///< generations between exchanges, and the halo rows above and below
  /// Each band's first row and, last, the height (ranks + 1 of them); empty: equal bands.
  std::vector<std::int64_t> starts = {};

  [[nodiscard]] std::int64_t first_row(int rank) const {
    return starts.empty() ? height * rank / ranks : starts[static_cast<std::size_t>(rank)];
  }
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

  /// These bands resized in proportion to `speeds` (one a rank: cell updates a second, or
  /// any unit common to all), so that every rank takes as long as the others: each keeps
  /// halo_steps rows and takes its share of the rest, rounded down, the rows left over
  /// (fewer than the ranks) going to the fastest. Needs bands that unsupported() accepts.
  [[nodiscard]] Bands weighted(std::span<const double> speeds) const {
    const double total =
        std::accumulate(speeds.begin(), speeds.end(), 0.0,
                        [](double sum, double s) { return sum + std::max(s, 0.0); });
    if (!(total > 0) || !std::isfinite(total)) return *this; // nothing measured: as they are
    // What every band keeps, then the rest shared by speed, rounded down.
    const std::int64_t spare = height - std::int64_t{ranks} * halo_steps;
    std::vector<std::int64_t> rows(static_cast<std::size_t>(ranks), halo_steps);
    std::int64_t given = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const auto share = static_cast<std::int64_t>(
          std::floor(static_cast<double>(spare) * std::max(speeds[r], 0.0) / total));
      rows[r] += std::min(share, spare - given);
      given += rows[r] - halo_steps;
    }
    const auto fastest = std::max_element(speeds.begin(), speeds.end()) - speeds.begin();
    rows[static_cast<std::size_t>(fastest)] += spare - given;
    Bands resized{height, ranks, halo_steps, {0}};
    for (const std::int64_t r : rows)
      resized.starts.push_back(resized.starts.back() + r);
    return resized;
  }

  /// Bytes the ranks send one another per generation, all ranks together: every
  /// halo_steps generations each sends halo_steps rows up and as many down.
  [[nodiscard]] double halo_bytes_per_generation(std::int64_t row_bytes) const {
    return 2.0 * ranks * static_cast<double>(row_bytes);
  }
};

} // namespace lifebench::mpi
