// Seed 004's "skipping dead blocks" attempt: one flag per thread block records
// whether its tile held a live cell; a block whose tile and neighbouring tiles
// held none writes dead cells without reading the grid. The flags are rewritten
// by every block each generation.
#include "common/hex.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/hex_bytes.cuh"
#include "cuda/hex_grid.cuh"
#include "lifebench/experiment.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

constexpr unsigned kBlockX = 32;
constexpr unsigned kBlockY = 8;

struct Blocks {
  int x; // blocks across
  int y; // blocks down
};

/// Whether tile (bx, by) or one of its eight neighbours (wrapped on a torus) held a live cell.
template <bool Torus>
__device__ bool near_live(const std::uint8_t* __restrict__ live, Blocks blocks, int bx, int by) {
  bool any = false;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int nx = bx + dx;
      int ny = by + dy;
      if constexpr (Torus) {
        nx = (nx + blocks.x) % blocks.x;
        ny = (ny + blocks.y) % blocks.y;
      } else if (nx < 0 || ny < 0 || nx >= blocks.x || ny >= blocks.y) {
        continue;
      }
      any = any || live[ny * blocks.x + nx] != 0;
    }
  }
  return any;
}

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    skipdead_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                  int height, const std::uint8_t* __restrict__ live_in,
                  std::uint8_t* __restrict__ live_out, Blocks blocks) {
  __shared__ bool active;
  const int bx = static_cast<int>(blockIdx.x);
  const int by = static_cast<int>(blockIdx.y);
  if (threadIdx.x == 0 && threadIdx.y == 0) active = near_live<Torus>(live_in, blocks, bx, by);
  __syncthreads();
  const int x = bx * static_cast<int>(kBlockX) + static_cast<int>(threadIdx.x);
  const int y = by * static_cast<int>(kBlockY) + static_cast<int>(threadIdx.y);
  const bool inside = x < width && y < height;
  const std::size_t index =
      static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  unsigned alive = 0;
  if (active && inside) {
    const unsigned count = hex::neighbour_count<Torus>(in, x, y, width, height);
    alive = hex::next_state(count, in[index]);
  }
  // A quiet block's cells are dead and stay dead (no birth on 0 neighbours), but the
  // buffer still holds the generation before last: write them.
  if (inside) out[index] = static_cast<std::uint8_t>(alive);
  const int any = __syncthreads_or(static_cast<int>(alive));
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    live_out[by * blocks.x + bx] = static_cast<std::uint8_t>(any != 0);
  }
}

/// Flags of the uploaded grid.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    mark_live(const std::uint8_t* __restrict__ grid, int width, int height,
              std::uint8_t* __restrict__ live, Blocks blocks) {
  const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  const int alive = x < width && y < height
                        ? grid[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                               static_cast<std::size_t>(x)]
                        : 0;
  const int any = __syncthreads_or(alive);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    live[blockIdx.y * blocks.x + blockIdx.x] = static_cast<std::uint8_t>(any != 0);
  }
}

Blocks blocks_of(const Shape& shape) {
  return {static_cast<int>((shape.width + kBlockX - 1) / kBlockX),
          static_cast<int>((shape.height + kBlockY - 1) / kBlockY)};
}

class HexSkipDeadSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  explicit HexSkipDeadSimulator(const Problem& problem)
      : BufferedSimulator(problem),
        blocks_(blocks_of(problem.shape)), live_{cuda::DeviceBuffer<std::uint8_t>(flags()),
                                                 cuda::DeviceBuffer<std::uint8_t>(flags())} {
    hex::load_rule_table(problem.rule);
  }

  void upload(const Grid& grid) override {
    BufferedSimulator::upload(grid);
    mark_live<<<grid_dim(), block_dim(), 0, stream()>>>(in(), width(), height(),
                                                        live_[live_current_].data(), blocks_);
    LIFEBENCH_CUDA_CHECK_LAUNCH();
    LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream()));
  }

  /// Quiet blocks are skipped: a soup's later generations go faster as it dies down, so each
  /// repetition starts from the soup again.
  [[nodiscard]] bool pace_follows_state() const override { return true; }

private:
  [[nodiscard]] std::size_t flags() const {
    return static_cast<std::size_t>(blocks_.x) * static_cast<std::size_t>(blocks_.y);
  }
  [[nodiscard]] dim3 grid_dim() const {
    return {static_cast<unsigned>(blocks_.x), static_cast<unsigned>(blocks_.y)};
  }
  [[nodiscard]] static dim3 block_dim() { return {kBlockX, kBlockY}; }
  [[nodiscard]] int width() const { return static_cast<int>(problem().shape.width); }
  [[nodiscard]] int height() const { return static_cast<int>(problem().shape.height); }

  void launch(std::uint64_t generations) override {
    const auto kernel = torus() ? skipdead_step<true> : skipdead_step<false>;
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      kernel<<<grid_dim(), block_dim(), 0, stream()>>>(in, out, width(), height(),
                                                       live_[live_current_].data(),
                                                       live_[1 - live_current_].data(), blocks_);
      live_current_ = 1 - live_current_;
    });
  }

  Blocks blocks_;
  std::array<cuda::DeviceBuffer<std::uint8_t>, 2> live_;
  int live_current_ = 0;
};

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  if (auto reason = hex::birth_on_0_unsupported(problem, "dead blocks")) return reason;
  return hex::block_rows_unsupported(problem, kBlockY);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"hex-cuda-skipdead", "hex", "cuda",
              "seed 004 \"Design process\": skipping dead blocks (failed attempt)",
              "hex-cuda-naive plus one live flag per 32x8 block: a block whose tile and "
              "eight neighbouring tiles held no live cell writes dead cells without reading"},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::skipdead_step<true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::HexSkipDeadSimulator>})
