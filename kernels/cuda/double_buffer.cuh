// The state of a CUDA experiment that ping-pongs between two device buffers: the
// upload and download copies, the launch loop (several generations per launch where
// the kernel allows) and its event timing. Experiments keep only their kernels and
// launch geometry.
#pragma once

#include "cuda/error.cuh"
#include "cuda/runtime.cuh"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace lifebench::cuda {

template <class Word> class DoubleBuffer {
public:
  explicit DoubleBuffer(std::size_t count)
      : buffers_{DeviceBuffer<Word>(count), DeviceBuffer<Word>(count)} {}

  [[nodiscard]] std::size_t size() const { return buffers_[0].size(); }
  [[nodiscard]] std::size_t bytes() const { return buffers_[0].bytes(); }
  [[nodiscard]] cudaStream_t stream() const { return stream_.get(); }
  /// The buffer that holds the current generation.
  [[nodiscard]] Word* current() const { return buffers_[current_].data(); }

  void copy_in(const Word* host) {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(current(), host, bytes(), cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }
  void copy_out(Word* host) const {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(host, current(), bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }

  /// Advances `generations` by launches of at most `per_launch` generations each:
  /// launch(in, out, n, stream) enqueues n generations from `in` to `out`.
  template <class Launch>
  void advance(std::uint64_t generations, std::uint64_t per_launch, Launch&& launch) {
    enqueue(generations, per_launch, launch);
    stream_.synchronize();
  }

  /// As advance(), timed with events on the stream; seconds.
  template <class Launch>
  double timed_advance(std::uint64_t generations, std::uint64_t per_launch, Launch&& launch) {
    timer_.start(stream_.get());
    enqueue(generations, per_launch, launch);
    timer_.stop(stream_.get());
    return timer_.seconds();
  }

private:
  template <class Launch>
  void enqueue(std::uint64_t generations, std::uint64_t per_launch, Launch& launch) {
    for (std::uint64_t done = 0; done < generations;) {
      const auto n = std::min(per_launch, generations - done);
      launch(static_cast<const Word*>(buffers_[current_].data()), buffers_[1 - current_].data(), n,
             stream_.get());
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      current_ = 1 - current_;
      done += n;
    }
  }

  Stream stream_;
  EventTimer timer_;
  std::array<DeviceBuffer<Word>, 2> buffers_;
  int current_ = 0;
};

} // namespace lifebench::cuda
