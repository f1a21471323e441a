// The host side every CUDA simulator that ping-pongs between two device buffers
// shares: the upload and download copies, the launch loop (several generations per
// launch where the kernel allows), its event timing, and the device description with
// the measured ceilings. Experiments keep their kernels, launch geometry, packing and
// any further device state.
#pragma once

#include "cuda/ceilings.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <map>
#include <optional>
#include <string>

namespace lifebench::cuda {

/// `count` words of type Word hold the state; a derived class packs it (upload,
/// download) and enqueues generations (launch).
template <class Word> class BufferedSimulator : public Simulator {
public:
  void advance(std::uint64_t generations) override {
    enqueue(generations);
    stream_.synchronize();
  }

  double timed_advance(std::uint64_t generations) override {
    timer_.start(stream_.get());
    enqueue(generations);
    timer_.stop(stream_.get());
    return timer_.seconds();
  }

  [[nodiscard]] std::string clock() const override { return "cuda_events"; }
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    auto info = device_info_with_ceilings();
    for (auto& [key, value] : device_extras())
      info.insert_or_assign(key, value);
    return info;
  }
  /// Each word read once and written once: the least a kernel over the state moves.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return 2.0 * static_cast<double>(state_bytes());
  }

protected:
  explicit BufferedSimulator(std::size_t count)
      : buffers_{DeviceBuffer<Word>(count), DeviceBuffer<Word>(count)} {}

  [[nodiscard]] std::size_t words() const { return buffers_[0].size(); }
  [[nodiscard]] std::size_t state_bytes() const { return buffers_[0].bytes(); }
  [[nodiscard]] cudaStream_t stream() const { return stream_.get(); }
  /// The buffer that holds the current generation.
  [[nodiscard]] const Word* current() const { return buffers_[current_].data(); }
  void synchronize() const { stream_.synchronize(); }

  /// The state from `words()` host words, and back.
  void copy_in(const Word* host) {
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(buffers_[current_].data(), host, state_bytes(),
                                        cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }
  void copy_out(Word* host) const {
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(host, buffers_[current_].data(), state_bytes(),
                                        cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }

  /// Enqueues `generations` generations from `in` to `out` on `stream`; never more
  /// than generations_per_launch() at once.
  virtual void launch(const Word* in, Word* out, std::uint64_t generations,
                      cudaStream_t stream) = 0;
  [[nodiscard]] virtual std::uint64_t generations_per_launch() const { return 1; }
  /// Keys added to device(), e.g. a parameter the simulator chose itself.
  [[nodiscard]] virtual std::map<std::string, std::string> device_extras() const { return {}; }

private:
  void enqueue(std::uint64_t generations) {
    const std::uint64_t per_launch = generations_per_launch();
    for (std::uint64_t done = 0; done < generations;) {
      const auto n = std::min(per_launch, generations - done);
      launch(buffers_[current_].data(), buffers_[1 - current_].data(), n, stream_.get());
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
