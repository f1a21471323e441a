// What the slides' two table experiments (cuda-lut4x4, cuda-uint16-lut) share: the
// 4x4 table on the device, two state buffers swapped after each one-launch generation,
// CUDA-event timing and the device description with its measured ceilings.
#pragma once

#include "cuda/ceilings.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"
#include "lut4x4.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <map>
#include <optional>
#include <string>

namespace lifebench {

/// `count` words of type Word hold the state; a derived class launches one generation.
template <class Word> class TableSimulator : public Simulator {
public:
  void advance(std::uint64_t generations) override {
    launch(generations);
    stream_.synchronize();
  }

  double timed_advance(std::uint64_t generations) override {
    timer_.start(stream_.get());
    launch(generations);
    timer_.stop(stream_.get());
    return timer_.seconds();
  }

  [[nodiscard]] std::string clock() const override { return "cuda_events"; }
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    auto info = cuda::device_info();
    info.merge(cuda::measured_ceilings());
    return info;
  }
  /// Each word read once and written once; re-reads of neighbours and the table are
  /// left to the caches.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return 2.0 * static_cast<double>(count_ * sizeof(Word));
  }

protected:
  TableSimulator(const Problem& problem, std::size_t count)
      : problem_(problem),
        count_(count), buffers_{cuda::DeviceBuffer<Word>(count), cuda::DeviceBuffer<Word>(count)},
        table_(lut4x4::entries) {
    const auto table = lut4x4::build_table(problem.rule.birth, problem.rule.survive);
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(table_.data(), table.data(), table.size(),
                                        cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }

  [[nodiscard]] const Problem& problem() const { return problem_; }

  /// The state from `count` host words, and back.
  void copy_in(const Word* host) {
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(buffers_[current_].data(), host, count_ * sizeof(Word),
                                        cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }
  void copy_out(Word* host) {
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(host, buffers_[current_].data(), count_ * sizeof(Word),
                                        cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }

  /// Launches one generation from `in` to `out` on `stream`.
  virtual void step(const Word* in, Word* out, const std::uint8_t* table, cudaStream_t stream) = 0;

private:
  void launch(std::uint64_t generations) {
    for (std::uint64_t g = 0; g < generations; ++g) {
      step(buffers_[current_].data(), buffers_[1 - current_].data(), table_.data(), stream_.get());
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      current_ = 1 - current_;
    }
  }

  Problem problem_;
  std::size_t count_;
  cuda::Stream stream_;
  cuda::EventTimer timer_;
  std::array<cuda::DeviceBuffer<Word>, 2> buffers_;
  cuda::DeviceBuffer<std::uint8_t> table_;
  int current_ = 0;
};

} // namespace lifebench
