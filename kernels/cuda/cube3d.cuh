// The device side the byte-per-cell 3D experiments of seed 001 (cuda3d-naive,
// cuda3d-shared, cuda3d-swar, cuda3d-pdl) share. Their device layout is the canonical
// grid itself (cuda::CellBytes): one byte per cell, (z, y, x) with x fastest, so a uint32
// read at a multiple of four bytes holds four consecutive cells of a row, cell x = 4w + j
// in byte j (little endian). One launch per generation; v2's simulator is in
// cuda/cube_simulator.cuh.
#pragma once

#include "common/host_device.hpp"
#include "cuda/error.cuh"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::cube {

/// Any 3D B/S rule as two masks: bit n set when n live neighbours (the cell not counted)
/// give birth, or keep a live cell alive.
struct MaskRule {
  std::uint32_t birth;
  std::uint32_t survive;
  [[nodiscard]] LIFEBENCH_HOST_DEVICE std::uint8_t next(unsigned alive, unsigned neighbours) const {
    return static_cast<std::uint8_t>(((alive != 0U ? survive : birth) >> neighbours) & 1U);
  }
};

/// The shape as 32-bit sizes: all four index cells with 32-bit integers, as the seed does.
struct Size {
  unsigned width;
  unsigned height;
  unsigned depth;
};

/// Coordinate c + d (d in -1, 0, 1) on an axis of n cells: wrapped on the torus; on the
/// dead boundary n stands for "outside", which the caller skips.
template <bool Torus> LIFEBENCH_HOST_DEVICE unsigned neighbour(unsigned c, int d, unsigned n) {
  if (d < 0) return c == 0 ? (Torus ? n - 1 : n) : c - 1;
  if (d > 0) return c + 1 == n ? (Torus ? 0 : n) : c + 1;
  return c;
}

// ---- v2 bit logic: four cells per uint32, one count per byte --------------------------

/// Adds the x neighbours to per-byte counts: byte j of the result is byte j - 1 + byte j +
/// byte j + 1 of `middle`, byte 0 taking byte 3 of `left` and byte 3 byte 0 of `right`
/// (the words on either side). No carry crosses a byte while every byte is at most 85;
/// here they are at most 9 (a 3 x 3 column along y and z), so the sums are at most 27.
LIFEBENCH_HOST_DEVICE std::uint32_t add_x_neighbours(std::uint32_t left, std::uint32_t middle,
                                                     std::uint32_t right) {
  return middle + (middle << 8) + (left >> 24) + (middle >> 8) + (right << 24);
}

/// The next four cells from `total` (per byte: the 27-cell sum, the cell included) and
/// `self` (per byte: the cell, 0 or 1). A dead cell is born when bit `total` of `born` is
/// set; a live one stays alive when bit `total` of `kept` is (kept = survive << 1, as the
/// sum counts the cell itself).
LIFEBENCH_HOST_DEVICE std::uint32_t next_bytes(std::uint32_t total, std::uint32_t self,
                                               std::uint32_t born, std::uint32_t kept) {
  std::uint32_t next = 0;
  for (unsigned j = 0; j < 4; ++j) {
    const std::uint32_t sum = (total >> (8 * j)) & 0xffU;
    const std::uint32_t mask = ((self >> (8 * j)) & 1U) != 0 ? kept : born;
    next |= ((mask >> sum) & 1U) << (8 * j);
  }
  return next;
}

/// Seed 001 v2 ("Refine"): block (y, z-slab) of width/4 threads, thread tx owning word tx
/// of row y in planes z0 .. z0 + ZWidth - 1. Each thread sums, per byte, the three rows
/// y - 1, y, y + 1 of planes z0 - 1 .. z0 + ZWidth, then three planes: the 3 x 3 column
/// (y, z) of each of its cells. Those sums go through shared memory so that the words
/// on either side can add the x neighbours. With Pdl the launch may begin while the
/// previous one still runs (programmatic dependent launch): the index arithmetic above
/// the wait overlaps it.
template <int ZWidth, bool Torus, bool Pdl>
__global__ void swar_step(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                          Size size, std::uint32_t born, std::uint32_t kept) {
  extern __shared__ std::uint32_t sums[]; // ZWidth rows of words + 2: one halo word each side
  const unsigned words = size.width / 4;  // == blockDim.x
  const unsigned stride = words + 2;
  const unsigned tx = threadIdx.x;
  const unsigned y = blockIdx.y;
  const unsigned z0 = blockIdx.z * ZWidth;
  const unsigned ys[3] = {neighbour<Torus>(y, -1, size.height), y,
                          neighbour<Torus>(y, 1, size.height)};
  if constexpr (Pdl) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Waits until the previous launch has finished and its writes are visible (it also
    // read the buffer this one writes); then lets the next launch be scheduled.
    cudaGridDependencySynchronize();
    cudaTriggerProgrammaticLaunchCompletion();
#endif
  }

  std::uint32_t column[ZWidth + 2]; // per byte: rows y - 1 .. y + 1 of plane z0 - 1 + i
  std::uint32_t self[ZWidth] = {};  // this thread's own words, plane z0 + i
#pragma unroll
  for (int i = 0; i < ZWidth + 2; ++i) {
    column[i] = 0;
    unsigned z = z0 + i - 1;
    if (i == 0) z = neighbour<Torus>(z0, -1, size.depth);
    if (i == ZWidth + 1) z = neighbour<Torus>(z0 + ZWidth - 1, 1, size.depth);
    if (!Torus && z == size.depth) continue;
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      if (!Torus && ys[k] == size.height) continue;
      const std::uint32_t word = in[(z * size.height + ys[k]) * words + tx];
      column[i] += word;
      if (k == 1 && i >= 1 && i <= ZWidth) self[i - 1] = word;
    }
  }
#pragma unroll
  for (int i = 0; i < ZWidth; ++i)
    sums[i * stride + tx + 1] = column[i] + column[i + 1] + column[i + 2];
  __syncthreads();
  for (unsigned row = tx; row < ZWidth; row += blockDim.x) { // halo words of each row
    sums[row * stride] = Torus ? sums[row * stride + words] : 0U;
    sums[row * stride + words + 1] = Torus ? sums[row * stride + 1] : 0U;
  }
  __syncthreads();

#pragma unroll
  for (int i = 0; i < ZWidth; ++i) {
    const std::uint32_t* row = sums + i * stride + tx;
    const std::uint32_t total = add_x_neighbours(row[0], row[1], row[2]);
    out[((z0 + i) * size.height + y) * words + tx] = next_bytes(total, self[i], born, kept);
  }
}

/// The z_width values compiled (the seed's Z_WIDTH is 4).
inline const std::vector<std::string> swar_z_widths = {"1", "2", "4", "8"};

template <int ZWidth, bool Torus, bool Pdl> constexpr auto* swar_kernel() {
  return &swar_step<ZWidth, Torus, Pdl>;
}

/// Enqueues one v2 generation; cudaLaunchKernelEx with programmatic stream serialisation
/// when Pdl (compute capability 9.0 and later).
template <bool Pdl>
void launch_swar(const std::uint8_t* in, std::uint8_t* out, Size size, int z_width, bool torus,
                 MaskRule rule, cudaStream_t stream) {
  using Kernel = void (*)(const std::uint32_t*, std::uint32_t*, Size, std::uint32_t, std::uint32_t);
  const auto pick = [torus](auto kernel_true, auto kernel_false) -> Kernel {
    return torus ? kernel_true : kernel_false;
  };
  Kernel kernel = nullptr;
  switch (z_width) {
  case 1:
    kernel = pick(swar_kernel<1, true, Pdl>(), swar_kernel<1, false, Pdl>());
    break;
  case 2:
    kernel = pick(swar_kernel<2, true, Pdl>(), swar_kernel<2, false, Pdl>());
    break;
  case 8:
    kernel = pick(swar_kernel<8, true, Pdl>(), swar_kernel<8, false, Pdl>());
    break;
  default:
    kernel = pick(swar_kernel<4, true, Pdl>(), swar_kernel<4, false, Pdl>());
    break;
  }
  const unsigned words = size.width / 4;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1, size.height, size.depth / static_cast<unsigned>(z_width));
  config.blockDim = dim3(words);
  config.dynamicSmemBytes = static_cast<std::size_t>(z_width) * (words + 2) * 4;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  if constexpr (Pdl) {
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  // The kept mask is survive << 1: v2's sum counts the cell itself.
  LIFEBENCH_CUDA_CALL(cudaLaunchKernelEx(
      &config, kernel, reinterpret_cast<const std::uint32_t*>(in),
      reinterpret_cast<std::uint32_t*>(out), size, rule.birth, rule.survive << 1U));
}

// ---- the problem in the kernels' terms, and the limits all four share ------------------

/// The shape as the kernels' 32-bit sizes (unsupported() keeps them in range).
inline Size size_of(const Problem& problem) {
  return {static_cast<unsigned>(problem.shape.width), static_cast<unsigned>(problem.shape.height),
          static_cast<unsigned>(problem.shape.depth)};
}

inline MaskRule rule_of(const Problem& problem) {
  return {problem.rule.birth, problem.rule.survive};
}

/// What all four refuse: more than 2^32 cells (32-bit cell indices, as in the seed). Every
/// 3D B/S rule and both boundaries are supported.
inline std::optional<std::string> unsupported(const Problem& problem) {
  if (problem.shape.cells() > (std::int64_t{1} << 32)) {
    return "at most 2^32 cells (32-bit cell indices); this grid has " +
           std::to_string(problem.shape.cells());
  }
  return std::nullopt;
}

} // namespace lifebench::cube
