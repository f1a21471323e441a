// What the slides' two table experiments (cuda-lut4x4, cuda-uint16-lut) share beyond
// the buffered simulator: the 4x4 table on the device, and one generation per launch.
#pragma once

#include "common/lut4x4.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace lifebench {

/// `count` words of type Word hold the state; a derived class launches one generation.
/// bytes_per_generation(): each word read once and written once; re-reads of
/// neighbours and the table are left to the caches.
template <class Word> class TableSimulator : public cuda::BufferedSimulator<Word> {
protected:
  TableSimulator(const Problem& problem, std::size_t count)
      : cuda::BufferedSimulator<Word>(count), problem_(problem), table_(lut4x4::entries) {
    const auto table = lut4x4::build_table(problem.rule.birth, problem.rule.survive);
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(table_.data(), table.data(), table.size(),
                                        cudaMemcpyHostToDevice, this->stream()));
    this->synchronize();
  }

  [[nodiscard]] const Problem& problem() const { return problem_; }

  /// Launches one generation from `in` to `out` on `stream`.
  virtual void step(const Word* in, Word* out, const std::uint8_t* table, cudaStream_t stream) = 0;

private:
  void launch(const Word* in, Word* out, std::uint64_t /*generations*/,
              cudaStream_t stream) override {
    step(in, out, table_.data(), stream);
  }

  Problem problem_;
  cuda::DeviceBuffer<std::uint8_t> table_;
};

} // namespace lifebench
