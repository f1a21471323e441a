// Seed 001, "Basic implementation" (v0): one thread per cell, one byte per cell, the 26
// neighbours read straight from global memory. Thread x is the fastest index and cell x
// the fastest in memory, so a warp reads consecutive bytes (the seed notes that the
// reverse order is correct but slow).
#include "cuda/buffered_simulator.cuh"
#include "cuda/cube3d.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/experiment.hpp"

#include <memory>

namespace lifebench {
namespace {

constexpr unsigned kBlockX = 32; // a warp along a row: coalesced loads
constexpr unsigned kBlockY = 8;

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    naive_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, cube::Size size,
               cube::MaskRule rule) {
  const unsigned x = blockIdx.x * kBlockX + threadIdx.x;
  const unsigned y = blockIdx.y * kBlockY + threadIdx.y;
  const unsigned z = blockIdx.z;
  if (x >= size.width || y >= size.height) return;
  unsigned sum = 0; // the 27 cells, this one included
#pragma unroll
  for (int dz = -1; dz <= 1; ++dz) {
    const unsigned zn = cube::neighbour<Torus>(z, dz, size.depth);
    if (!Torus && zn == size.depth) continue;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
      const unsigned yn = cube::neighbour<Torus>(y, dy, size.height);
      if (!Torus && yn == size.height) continue;
      const unsigned row = (zn * size.height + yn) * size.width;
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx) {
        const unsigned xn = cube::neighbour<Torus>(x, dx, size.width);
        if (!Torus && xn == size.width) continue;
        sum += in[row + xn];
      }
    }
  }
  const unsigned index = (z * size.height + y) * size.width + x;
  const unsigned alive = in[index];
  out[index] = rule.next(alive, sum - alive);
}

class NaiveSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  explicit NaiveSimulator(const Problem& problem) : BufferedSimulator(problem) {}

private:
  void launch(std::uint64_t generations) override {
    const cube::Size s = cube::size_of(problem());
    const cube::MaskRule rule = cube::rule_of(problem());
    const dim3 grid((s.width + kBlockX - 1) / kBlockX, (s.height + kBlockY - 1) / kBlockY, s.depth);
    const dim3 block(kBlockX, kBlockY);
    const auto kernel = torus() ? naive_step<true> : naive_step<false>;
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      kernel<<<grid, block, 0, stream()>>>(in, out, s, rule);
    });
  }
};

std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  if (auto reason = cube::unsupported(problem)) return reason;
  if (auto reason = cuda::beyond_grid_yz("depth", problem.shape.depth, 1, "a block per plane")) {
    return reason;
  }
  return cuda::beyond_grid_yz("height", problem.shape.height, kBlockY,
                              std::to_string(kBlockY) + "-row blocks");
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda3d-naive", "3d", "cuda", "seed 001, Basic implementation (v0)",
              "one byte per cell, one thread per cell (x fastest), 27 byte loads from global "
              "memory per cell, one generation per launch"},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::naive_step<true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::NaiveSimulator>})
