// Seed 004's "list of active cells" attempt: each generation, flag the cells
// that can change (alive, or with a live neighbour), turn the flags into list
// positions by an exclusive scan (CUB's DeviceScan), write the list, read its
// length back and launch threads only for the listed cells.
#include "common/hex.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/hex_bytes.cuh"
#include "cuda/hex_grid.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

constexpr unsigned kBlock = 256;

/// flag = 1 for a cell that is alive or has a live neighbour; the others are dead
/// and stay dead (no birth on 0 neighbours), so their next state is written here.
template <bool Torus>
__global__ void __launch_bounds__(kBlock)
    flag_cells(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
               int* __restrict__ flags, int width, int height, std::int64_t cells) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i >= cells) return;
  const int x = static_cast<int>(i % width);
  const int y = static_cast<int>(i / width);
  const int flag = (in[i] | hex::neighbour_count<Torus>(in, x, y, width, height)) != 0 ? 1 : 0;
  flags[i] = flag;
  if (flag == 0) out[i] = 0;
}

/// list[position[i]] = i for every flagged cell; the last thread writes the length.
__global__ void __launch_bounds__(kBlock)
    write_list(const int* __restrict__ flags, const int* __restrict__ positions,
               int* __restrict__ list, int* __restrict__ length, std::int64_t cells) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i >= cells) return;
  if (flags[i] != 0) list[positions[i]] = static_cast<int>(i);
  if (i + 1 == cells) *length = positions[i] + flags[i];
}

template <bool Torus>
__global__ void __launch_bounds__(kBlock)
    update_listed(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                  const int* __restrict__ list, int length, int width, int height) {
  const int j = static_cast<int>(blockIdx.x * kBlock + threadIdx.x);
  if (j >= length) return;
  const int i = list[j];
  const unsigned count = hex::neighbour_count<Torus>(in, i % width, i / width, width, height);
  out[i] = hex::next_state(count, in[i]);
}

unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + kBlock - 1) / kBlock);
}

class HexActiveListSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  explicit HexActiveListSimulator(const Problem& problem)
      : BufferedSimulator(problem), flags_(words()), positions_(words()), list_(words()),
        length_(1) {
    hex::load_rule_table(problem.rule);
    std::size_t bytes = 0;
    LIFEBENCH_CUDA_CALL(cub::DeviceScan::ExclusiveSum(nullptr, bytes, flags_.data(),
                                                      positions_.data(), cell_count()));
    scratch_ = cuda::DeviceBuffer<std::uint8_t>(bytes);
  }

  /// Only listed cells are updated: a soup's later generations go faster as it dies down,
  /// so each repetition starts from the soup again.
  [[nodiscard]] bool pace_follows_state() const override { return true; }

private:
  [[nodiscard]] int cell_count() const { return static_cast<int>(words()); }

  void launch(std::uint64_t generations) override {
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) { step(in, out); });
  }

  /// One generation: flag, scan, list, and update the listed cells.
  void step(const std::uint8_t* in, std::uint8_t* out) {
    cudaStream_t stream = this->stream();
    const auto width = static_cast<int>(problem().shape.width);
    const auto height = static_cast<int>(problem().shape.height);
    const auto cells = static_cast<std::int64_t>(words());
    (torus() ? flag_cells<true> : flag_cells<false>)<<<blocks_for(cells), kBlock, 0, stream>>>(
        in, out, flags_.data(), width, height, cells);
    LIFEBENCH_CUDA_CHECK_LAUNCH();
    std::size_t bytes = scratch_.bytes();
    LIFEBENCH_CUDA_CALL(cub::DeviceScan::ExclusiveSum(scratch_.data(), bytes, flags_.data(),
                                                      positions_.data(), cell_count(), stream));
    write_list<<<blocks_for(cells), kBlock, 0, stream>>>(flags_.data(), positions_.data(),
                                                         list_.data(), length_.data(), cells);
    LIFEBENCH_CUDA_CHECK_LAUNCH();
    // The seed sized the update launch by the list: its length comes back to the host.
    int length = 0;
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(&length, length_.data(), sizeof length, cudaMemcpyDeviceToHost, stream));
    LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    if (length > 0) {
      (torus() ? update_listed<true>
               : update_listed<false>)<<<blocks_for(length), kBlock, 0, stream>>>(
          in, out, list_.data(), length, width, height);
    }
  }

  cuda::DeviceBuffer<int> flags_;
  cuda::DeviceBuffer<int> positions_;
  cuda::DeviceBuffer<int> list_;
  cuda::DeviceBuffer<int> length_;
  cuda::DeviceBuffer<std::uint8_t> scratch_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  if (auto reason = hex::birth_on_0_unsupported(problem, "unlisted cells")) return reason;
  if (problem.shape.cells() > std::numeric_limits<int>::max()) {
    return std::string("at most 2^31 - 1 cells (32-bit list entries and scan)");
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"hex-cuda-activelist", "hex", "cuda",
              "seed 004 \"Design process\": list of active cells (failed attempt)",
              "one byte per cell; each generation flag cells that can change, exclusive scan "
              "(cub::DeviceScan), write the list, read its length back, one thread per "
              "listed cell"},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::update_listed<true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::HexActiveListSimulator>})
