// Seed 000, "LOP3": one thread per 32-cell word, one generation per launch, the
// next state of the word's cells from its eight neighbour words by the blog's
// hand-written 11-LOP3 sequence or the SAT solver's 10-LOP3 one.
#include "cuda/grid_limits.cuh"
#include "cuda/life_lop3.cuh"
#include "cuda/packed_simulator.cuh"

#include <cstdint>
#include <cuda_runtime.h>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

enum class Sequence { human11, sat10 };

constexpr unsigned kBlockX = 32; // words along a row: a warp reads 128 contiguous bytes
constexpr unsigned kBlockY = 8;  // rows

/// One generation: thread (x, y) writes word x of row y. Torus: rows and words
/// wrap around; dead: words outside the grid read as 0.
template <Sequence Seq, bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    lop3_step(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
              unsigned words_per_row, unsigned height) {
  const unsigned x = blockIdx.x * kBlockX + threadIdx.x;
  const unsigned y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= words_per_row || y >= height) return;
  const unsigned last_x = words_per_row - 1;
  const unsigned middle = y * words_per_row;
  const auto at = [in](bool present, unsigned index) { return present ? __ldg(in + index) : 0U; };
  std::uint32_t w[9]; // rows above, at, below; columns left, self, right
  if constexpr (Torus) {
    const unsigned left = x == 0 ? last_x : x - 1;
    const unsigned right = x == last_x ? 0 : x + 1;
    const unsigned up = y == 0 ? (height - 1) * words_per_row : middle - words_per_row;
    const unsigned down = y + 1 == height ? 0 : middle + words_per_row;
    const unsigned rows[3] = {up, middle, down};
#pragma unroll
    for (int r = 0; r < 3; ++r) {
      w[3 * r] = __ldg(in + rows[r] + left);
      w[3 * r + 1] = __ldg(in + rows[r] + x);
      w[3 * r + 2] = __ldg(in + rows[r] + right);
    }
  } else {
    // Indices of missing words wrap in unsigned arithmetic but are never read.
    const bool has_left = x > 0;
    const bool has_right = x < last_x;
    const bool rows_present[3] = {y > 0, true, y + 1 < height};
    const unsigned rows[3] = {middle - words_per_row, middle, middle + words_per_row};
#pragma unroll
    for (int r = 0; r < 3; ++r) {
      w[3 * r] = at(rows_present[r] && has_left, rows[r] + x - 1);
      w[3 * r + 1] = at(rows_present[r], rows[r] + x);
      w[3 * r + 2] = at(rows_present[r] && has_right, rows[r] + x + 1);
    }
  }
  const cuda::life::Neighbours n =
      cuda::life::neighbours(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]);
  out[middle + x] = Seq == Sequence::human11 ? cuda::life::step_human11(n, w[4])
                                             : cuda::life::step_sat10(n, w[4]);
}

Sequence sequence_of(const Params& params) {
  return params.get("sequence") == "sat10" ? Sequence::sat10 : Sequence::human11;
}

class Lop3Simulator final : public cuda_packed::PackedSimulator {
public:
  Lop3Simulator(const Problem& problem, const Params& params)
      : Lop3Simulator(problem, sequence_of(params)) {}
  Lop3Simulator(const Problem& problem, Sequence sequence)
      : PackedSimulator(problem, instructions_per_cell(sequence),
                        // each word read once from memory (neighbours come from the caches)
                        // and written once
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0),
        sequence_(sequence) {}

  /// LOP3 per cell: the sequence's per 32-cell word (its six funnel shifts, loads and
  /// addressing come on top).
  static double instructions_per_cell(Sequence sequence) {
    return (sequence == Sequence::human11 ? 11.0 : 10.0) / 32.0;
  }

private:
  void launch(std::uint64_t generations) override {
    if (sequence_ == Sequence::human11) {
      torus() ? launch_all<Sequence::human11, true>(generations)
              : launch_all<Sequence::human11, false>(generations);
    } else {
      torus() ? launch_all<Sequence::sat10, true>(generations)
              : launch_all<Sequence::sat10, false>(generations);
    }
  }

  template <Sequence Seq, bool Torus> void launch_all(std::uint64_t generations) {
    const dim3 grid((words_per_row() + kBlockX - 1) / kBlockX, (height() + kBlockY - 1) / kBlockY);
    const dim3 block(kBlockX, kBlockY);
    each_generation(generations, [&](const std::uint32_t* in, std::uint32_t* out) {
      lop3_step<Seq, Torus><<<grid, block, 0, stream()>>>(in, out, words_per_row(), height());
    });
  }

  Sequence sequence_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (auto reason = cuda_packed::beyond_32bit_indices(problem)) return reason;
  if (auto reason = cuda::beyond_grid_yz("height", problem.shape.height, kBlockY,
                                         std::to_string(kBlockY) + "-row blocks")) {
    return reason;
  }
  return cuda_packed::beyond_device_memory(problem);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-lop3", "square", "cuda", "seed 000 \"Cuda\" / \"LOP3\"",
              "32 cells per 32-bit word, one thread per word, one generation per launch, "
              "next state by a LOP3 sequence over the eight neighbour words"},
    .axes = {{.name = "sequence",
              .default_value = "sat10",
              .allowed = {"human11", "sat10"},
              .description = "human11: the blog's 11 hand-written LOP3s; sat10: the 10 LOP3s "
                             "its SAT solver found"}},
    .unavailable =
        lifebench::cuda::unavailable_for<&lifebench::lop3_step<lifebench::Sequence::sat10, true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::Lop3Simulator>})
