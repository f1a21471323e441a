// Seed 004's final version: one bit per cell, eight cells per byte, one thread
// per byte; the byte's two halves of four cells each take one lookup in a
// 2^16-entry table (16-bit neighbourhood index -> next states of four cells)
// built on the host for the rule. Index layout: kernels/common/hex.hpp.
#include "common/hex.hpp"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench {
namespace {

constexpr unsigned kBlockX = 32;
constexpr unsigned kBlockY = 8;
constexpr std::int64_t kMaxGridY = 65535; // CUDA's limit on gridDim.y

/// One byte (8 cells) per thread: seven byte loads (the row above needs its left
/// neighbour, the row below its right one), two table lookups.
template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    lut_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int columns,
             int height, const std::uint8_t* __restrict__ table, unsigned last_mask) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= columns || y >= height) return;
  const hex::Around<Torus> n(x, y, columns, height);
  const auto byte = [&](int column, int row) { return hex::cell_at(in, columns, column, row); };
  const hex::LutIndices index =
      hex::lut_indices(hex::lut_window(byte(n.left, n.up), byte(x, n.up), 0),
                       hex::lut_window(byte(n.left, y), byte(x, y), byte(n.right, y)),
                       hex::lut_window(0, byte(x, n.down), byte(n.right, n.down)));
  unsigned next =
      __ldg(table + index.low) | (static_cast<unsigned>(__ldg(table + index.high)) << 4);
  // On a plane the cells past the width stay dead.
  if (x + 1 == columns) next &= last_mask;
  out[static_cast<std::size_t>(y) * static_cast<std::size_t>(columns) +
      static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(next);
}

class HexLutSimulator final : public hex::DeviceGridSimulator<std::uint8_t, true> {
public:
  explicit HexLutSimulator(const Problem& problem)
      : DeviceGridSimulator(problem), table_(std::size_t{1} << hex::lut_index_bits) {
    std::vector<std::uint8_t> table(table_.size());
    for (std::uint32_t i = 0; i < table.size(); ++i) {
      table[i] = hex::lut4_entry(i, problem.rule.birth, problem.rule.survive);
    }
    LIFEBENCH_CUDA_CALL(
        cudaMemcpy(table_.data(), table.data(), table_.bytes(), cudaMemcpyHostToDevice));
    const auto tail = static_cast<unsigned>(problem.shape.width % 8);
    last_mask_ = tail == 0 ? 0xFFU : (1U << tail) - 1U;
  }

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const auto columns = static_cast<int>(words_per_row<std::uint8_t>(shape.width));
    const auto height = static_cast<int>(shape.height);
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid((static_cast<unsigned>(columns) + kBlockX - 1) / kBlockX,
                    (static_cast<unsigned>(height) + kBlockY - 1) / kBlockY);
    for (std::uint64_t g = 0; g < generations; ++g) {
      if (problem().boundary == Boundary::torus) {
        lut_step<true><<<grid, block, 0, stream()>>>(current(), next(), columns, height,
                                                     table_.data(), last_mask_);
      } else {
        lut_step<false><<<grid, block, 0, stream()>>>(current(), next(), columns, height,
                                                      table_.data(), last_mask_);
      }
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      swap();
    }
  }

  cuda::DeviceBuffer<std::uint8_t> table_;
  unsigned last_mask_ = 0xFFU;
};

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  if (auto reason = hex::byte_grid_unsupported(problem)) return reason;
  if (problem.boundary == Boundary::torus && problem.shape.width % 8 != 0) {
    return std::string("on a torus the width must be a multiple of 8 (8 cells per byte wrap "
                       "around whole)");
  }
  if ((problem.shape.height + kBlockY - 1) / kBlockY > kMaxGridY) {
    return "height must be at most " + std::to_string(kMaxGridY * kBlockY) +
           " (8-row blocks, CUDA's grid y limit)";
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-lut",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Final Implementation\": kernel_single_iteration, create_lookup_table",
    .technique = "one bit per cell, 8 cells per byte, one byte per thread, two lookups of a "
                 "2^16-entry table (16-bit neighbourhood -> 4 next states) in global memory",
    .axes = {},
    .unavailable = [] { return lifebench::cuda::unavailable_reason(&lifebench::lut_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params&) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::HexLutSimulator>(problem);
    }})
