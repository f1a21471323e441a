// One byte per cell in global memory, one thread per cell, one generation per
// launch: the word-per-cell GPU implementation of Fujita, Nakano and Ito (seed
// 003, Table 1) and the slides' "noif-char" kernel (seed 002, version 1). The
// two differ in launch geometry (a row of 32 threads against a 32x32 tile) and
// in how they reach the neighbours (eight explicit loads against a 3x3 loop
// with a bounds test per neighbour).
#include "cuda/buffered_simulator.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace lifebench {
namespace {

enum class KernelKind { fujita, noif_char };

/// B3/S23 as formula (2) of Fujita et al. states it, which is also the slides'
/// branchless expression: alive with three neighbours, or alive and two.
struct ConwayRule {
  __device__ std::uint8_t operator()(unsigned alive, unsigned sum) const {
    return static_cast<std::uint8_t>((sum == 3U) | (alive == 1U && sum == 2U));
  }
};

/// Any square B/S rule: bit `sum` of the mask the cell's state selects. It costs
/// the same few instructions as ConwayRule, so other rules come for free.
struct MaskRule {
  unsigned birth;
  unsigned survive;
  __device__ std::uint8_t operator()(unsigned alive, unsigned sum) const {
    return static_cast<std::uint8_t>(((alive != 0U ? survive : birth) >> sum) & 1U);
  }
};

constexpr unsigned kFujitaBlock = 32; // threads per block, one warp (Section 9)
constexpr unsigned kNoifTile = 32;    // 32x32 threads per block (slides, version 1)

/// Fujita et al.: blocks of 32 threads, block (bx, y) updating cells 32*bx ...
/// 32*bx+31 of row y; each thread loads its eight neighbours, sums them
/// (formula (1)) and applies the rule (formula (2)). Torus: the paper's
/// wrapped-around universe. Dead: neighbours outside the grid read as 0.
template <bool Torus, class Rule>
__global__ void __launch_bounds__(kFujitaBlock)
    fujita_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, unsigned width,
                unsigned height, Rule rule) {
  const unsigned x = blockIdx.x * kFujitaBlock + threadIdx.x;
  const unsigned y = blockIdx.y;
  if (x >= width) return;
  const unsigned middle = y * width;
  unsigned sum = 0;
  if constexpr (Torus) {
    const unsigned left = (x == 0 ? width : x) - 1;
    const unsigned right = x + 1 == width ? 0 : x + 1;
    const unsigned up = ((y == 0 ? height : y) - 1) * width;
    const unsigned down = (y + 1 == height ? 0 : y + 1) * width;
    sum = in[up + left] + in[up + x] + in[up + right] + in[middle + left] + in[middle + right] +
          in[down + left] + in[down + x] + in[down + right];
  } else {
    // Indices of missing neighbours wrap around in unsigned arithmetic but are never loaded.
    const bool has_left = x > 0;
    const bool has_right = x + 1 < width;
    const bool has_up = y > 0;
    const bool has_down = y + 1 < height;
    const unsigned up = middle - width;
    const unsigned down = middle + width;
    const auto at = [in](bool present, unsigned index) -> unsigned {
      return present ? in[index] : 0U;
    };
    sum = at(has_up && has_left, up + x - 1) + at(has_up, up + x) +
          at(has_up && has_right, up + x + 1) + at(has_left, middle + x - 1) +
          at(has_right, middle + x + 1) + at(has_down && has_left, down + x - 1) +
          at(has_down, down + x) + at(has_down && has_right, down + x + 1);
  }
  out[middle + x] = rule(in[middle + x], sum);
}

/// The slides' noif-char: 32x32 thread blocks, one cell per thread, a 3x3 loop
/// that adds every neighbour inside the grid (dead boundary, as the slides), or
/// every wrapped neighbour (torus); the centre is read again for the rule.
template <bool Torus, class Rule>
__global__ void __launch_bounds__(kNoifTile* kNoifTile)
    noif_char_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                   int height, Rule rule) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  unsigned neighbours = 0;
#pragma unroll
  for (int dy = -1; dy < 2; ++dy) {
#pragma unroll
    for (int dx = -1; dx < 2; ++dx) {
      int nx = x + dx;
      int ny = y + dy;
      if constexpr (Torus) {
        nx = nx < 0 ? width - 1 : (nx == width ? 0 : nx);
        ny = ny < 0 ? height - 1 : (ny == height ? 0 : ny);
        if (dx != 0 || dy != 0) {
          neighbours += in[static_cast<unsigned>(ny) * static_cast<unsigned>(width) +
                           static_cast<unsigned>(nx)];
        }
      } else {
        if (nx >= 0 && nx < width && ny >= 0 && ny < height && (dx != 0 || dy != 0)) {
          neighbours += in[static_cast<unsigned>(ny) * static_cast<unsigned>(width) +
                           static_cast<unsigned>(nx)];
        }
      }
    }
  }
  const unsigned index =
      static_cast<unsigned>(y) * static_cast<unsigned>(width) + static_cast<unsigned>(x);
  out[index] = rule(in[index], neighbours);
}

unsigned ceil_div(std::int64_t a, unsigned b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

bool is_conway(const Rule& rule) {
  return rule.birth == (1U << 3) && rule.survive == ((1U << 2) | (1U << 3));
}

KernelKind kernel_kind(const Params& params) {
  return params.get("kernel") == "noif-char" ? KernelKind::noif_char : KernelKind::fujita;
}

class ByteNaiveSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  ByteNaiveSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem), kernel_(kernel_kind(params)) {}

private:
  void launch(std::uint64_t generations) override {
    const Rule& rule = problem().rule;
    if (is_conway(rule)) {
      torus() ? run<true>(generations, ConwayRule{}) : run<false>(generations, ConwayRule{});
    } else {
      const MaskRule mask{rule.birth, rule.survive};
      torus() ? run<true>(generations, mask) : run<false>(generations, mask);
    }
  }

  template <bool Torus, class Rule> void run(std::uint64_t generations, Rule rule) {
    const Shape& shape = problem().shape;
    const auto width = static_cast<unsigned>(shape.width);
    const auto height = static_cast<unsigned>(shape.height);
    if (kernel_ == KernelKind::fujita) {
      // 16K x 16K: 512 x 16384 = 2^23 blocks of 32 threads, as in the paper.
      const dim3 grid(ceil_div(shape.width, kFujitaBlock), height);
      each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
        fujita_step<Torus><<<grid, kFujitaBlock, 0, stream()>>>(in, out, width, height, rule);
      });
    } else {
      const dim3 grid(ceil_div(shape.width, kNoifTile), ceil_div(shape.height, kNoifTile));
      const dim3 block(kNoifTile, kNoifTile);
      each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
        noif_char_step<Torus><<<grid, block, 0, stream()>>>(in, out, static_cast<int>(width),
                                                            static_cast<int>(height), rule);
      });
    }
  }

  KernelKind kernel_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  // The harness refuses other families (ExperimentInfo::family) before asking.
  const Shape& shape = problem.shape;
  if (shape.width > std::numeric_limits<int>::max()) {
    return std::string("width must be below 2^31 (32-bit signed coordinates)");
  }
  // Both kernels index cells with 32-bit unsigned integers, as the originals do.
  if (shape.cells() > (std::int64_t{1} << 32)) {
    return "at most 2^32 cells (32-bit cell indices); this grid has " +
           std::to_string(shape.cells());
  }
  if (kernel_kind(params) == KernelKind::fujita) {
    return cuda::beyond_grid_yz("height", shape.height, 1, "kernel=fujita: a block row per row");
  }
  return cuda::beyond_grid_yz("height", shape.height, kNoifTile,
                              "kernel=noif-char: " + std::to_string(kNoifTile) + "-row blocks");
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-byte-naive", "square", "cuda",
              "seed 003 Section 9, word-per-cell GPU (Table 1); seed 002 version 1 \"noif-char\"",
              "one byte per cell in global memory, one thread per cell, one generation per "
              "launch"},
    .axes = {{.name = "kernel",
              .default_value = "fujita",
              .allowed = {"fujita", "noif-char"},
              .description = "fujita: 32-thread blocks along a row, eight explicit neighbour "
                             "loads (Fujita et al.); noif-char: 32x32 thread blocks, 3x3 loop "
                             "with a bounds test per neighbour (slides)"}},
    .unavailable =
        lifebench::cuda::unavailable_for<&lifebench::fujita_step<true, lifebench::ConwayRule>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::ByteNaiveSimulator>})
