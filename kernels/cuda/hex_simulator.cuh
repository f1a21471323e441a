// What the hex-cuda-* experiments share: a simulator holding two device grids
// (one byte per cell, or rows packed into words as lifebench/packed.hpp packs
// them) on cuda::BufferedSimulator; and the
// six-neighbour count of a byte-per-cell grid (Golly's H neighbourhood, see
// common/hex.hpp), wrapped on a torus or zero outside a plane.
#pragma once

#include "common/hex.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <array>
#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace lifebench::hex {

/// Two device grids of `Word`s and the launches that advance them (launch()). With
/// Word = std::uint8_t and Packed = false the layout is the canonical one byte per cell.
/// bytes_per_generation(): each word read once and written once per generation, the
/// least a kernel that makes one pass over the grid per generation moves.
template <class Word, bool Packed>
class DeviceGridSimulator : public cuda::BufferedSimulator<Word> {
public:
  explicit DeviceGridSimulator(const Problem& problem)
      : cuda::BufferedSimulator<Word>(
            Packed ? static_cast<std::size_t>(words_per_row<Word>(problem.shape.width) *
                                              problem.shape.height)
                   : static_cast<std::size_t>(problem.shape.cells())),
        problem_(problem) {
    static_assert(Packed || std::is_same_v<Word, std::uint8_t>);
  }

  void upload(const Grid& grid) override {
    if constexpr (Packed) {
      this->copy_in(pack_rows<Word>(grid).data());
    } else {
      this->copy_in(grid.data());
    }
  }

  Grid download() override {
    Grid grid(problem_.shape);
    if constexpr (Packed) {
      std::vector<Word> packed(this->words());
      this->copy_out(packed.data());
      unpack_rows<Word>(std::span<const Word>(packed), grid);
    } else {
      this->copy_out(grid.data());
    }
    return grid;
  }

protected:
  [[nodiscard]] const Problem& problem() const { return problem_; }

private:
  Problem problem_;
};

/// Rows and columns of a cell's neighbours, wrapped (torus) or -1 outside (plane).
template <bool Torus> struct Around {
  int left, right, up, down;
  __device__ Around(int x, int y, int width, int height) {
    if constexpr (Torus) {
      left = x == 0 ? width - 1 : x - 1;
      right = x + 1 == width ? 0 : x + 1;
      up = y == 0 ? height - 1 : y - 1;
      down = y + 1 == height ? 0 : y + 1;
    } else {
      left = x - 1;
      right = x + 1 == width ? -1 : x + 1;
      up = y - 1;
      down = y + 1 == height ? -1 : y + 1;
    }
  }
};

/// Cell (x, y) of a byte-per-cell grid; 0 where x or y is -1 (outside a plane).
__device__ __forceinline__ unsigned cell_at(const std::uint8_t* __restrict__ grid, int width, int x,
                                            int y) {
  if (x < 0 || y < 0) return 0;
  return grid[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
              static_cast<std::size_t>(x)];
}

/// Live neighbours of cell (x, y): (x-1, y-1), (x, y-1), (x-1, y), (x+1, y), (x, y+1), (x+1, y+1).
template <bool Torus>
__device__ __forceinline__ unsigned neighbour_count(const std::uint8_t* __restrict__ grid, int x,
                                                    int y, int width, int height) {
  const Around<Torus> n(x, y, width, height);
  return cell_at(grid, width, n.left, n.up) + cell_at(grid, width, x, n.up) +
         cell_at(grid, width, n.left, y) + cell_at(grid, width, n.right, y) +
         cell_at(grid, width, x, n.down) + cell_at(grid, width, n.right, n.down);
}

/// The 24-bit windows (hex::lut_window) of the rows above, at and below byte
/// (x, y) of a grid of 8 cells per byte: seven byte loads, as the row above
/// needs only its left neighbour byte and the row below only its right one.
template <bool Torus>
__device__ __forceinline__ void byte_windows(const std::uint8_t* __restrict__ grid, int x, int y,
                                             int columns, int height, std::uint32_t& above,
                                             std::uint32_t& middle, std::uint32_t& below) {
  const Around<Torus> n(x, y, columns, height);
  above = lut_window(cell_at(grid, columns, n.left, n.up), cell_at(grid, columns, x, n.up), 0);
  middle = lut_window(cell_at(grid, columns, n.left, y), cell_at(grid, columns, x, y),
                      cell_at(grid, columns, n.right, y));
  below = lut_window(0, cell_at(grid, columns, x, n.down), cell_at(grid, columns, n.right, n.down));
}

/// Why a byte-per-cell kernel with 32-bit int coordinates cannot take the problem, or nothing.
inline std::optional<std::string> byte_grid_unsupported(const Problem& problem) {
  if (problem.shape.width >= (std::int64_t{1} << 31) ||
      problem.shape.height >= (std::int64_t{1} << 31)) {
    return std::string("width and height must be below 2^31 (32-bit coordinates)");
  }
  return std::nullopt;
}

/// byte_grid_unsupported, and the height that blocks of `block_rows` cell rows, one
/// block row per gridDim.y, can cover.
inline std::optional<std::string> block_rows_unsupported(const Problem& problem,
                                                         std::int64_t block_rows) {
  if (auto reason = byte_grid_unsupported(problem)) return reason;
  constexpr std::int64_t max_grid_y = 65535; // CUDA's limit on gridDim.y
  if ((problem.shape.height + block_rows - 1) / block_rows > max_grid_y) {
    return "height must be at most " + std::to_string(max_grid_y * block_rows) + " (" +
           std::to_string(block_rows) + "-row blocks, CUDA's grid y limit)";
  }
  return std::nullopt;
}

/// Copies the seed's 14-entry rule table (count + 7 * alive) into an experiment's
/// __constant__ array.
template <class Symbol> void copy_rule_table(const Symbol& symbol, const Rule& rule) {
  const auto table = next_state_table(rule.birth, rule.survive);
  static_assert(sizeof(Symbol) == sizeof(table));
  LIFEBENCH_CUDA_CALL(cudaMemcpyToSymbol(symbol, table.data(), table.size()));
}

/// A byte-per-cell kernel(in, out, width, height), one launch per generation on a
/// grid of `cells_per_block` (x, y) cells per block of `block` threads.
template <class Kernel>
class ByteKernelSimulator final : public DeviceGridSimulator<std::uint8_t, false> {
public:
  ByteKernelSimulator(const Problem& problem, Kernel torus, Kernel dead, dim3 block,
                      dim3 cells_per_block)
      : DeviceGridSimulator(problem), kernel_(problem.boundary == Boundary::torus ? torus : dead),
        block_(block), grid_(static_cast<unsigned>((problem.shape.width + cells_per_block.x - 1) /
                                                   cells_per_block.x),
                             static_cast<unsigned>((problem.shape.height + cells_per_block.y - 1) /
                                                   cells_per_block.y)) {}

private:
  void launch(const std::uint8_t* in, std::uint8_t* out, std::uint64_t /*generations*/,
              cudaStream_t stream) override {
    kernel_<<<grid_, block_, 0, stream>>>(in, out, static_cast<int>(problem().shape.width),
                                          static_cast<int>(problem().shape.height));
  }

  Kernel kernel_;
  dim3 block_;
  dim3 grid_;
};

} // namespace lifebench::hex
