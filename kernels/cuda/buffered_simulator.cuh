// The host side every CUDA simulator shares: its state in two device buffers that the
// launches ping-pong between, the upload and download copies through the state's layout,
// the event timing of advance(), and the device description with the measured ceilings.
// Experiments keep their kernels, launch geometry and any further device state.
#pragma once

#include "cuda/ceilings.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace lifebench::cuda {

// A layout says how the device words hold the canonical grid:
//   using Word = ...;                                  // the device word
//   static std::size_t words(const Shape&);            // words the state takes
//   static std::vector<Word> pack(const Grid&);        // the grid as those words
//   static void unpack(std::span<const Word>, Grid&);  // and back

/// One byte a cell: the canonical grid itself, copied as it is.
struct CellBytes {
  using Word = std::uint8_t;
  static std::size_t words(const Shape& shape) { return static_cast<std::size_t>(shape.cells()); }
};

/// Rows of cells packed into Ws as lifebench/packed.hpp packs them (LSB = leftmost cell).
template <class W> struct PackedRows {
  using Word = W;
  static std::size_t words(const Shape& shape) {
    return static_cast<std::size_t>(words_per_row<W>(shape.width) * shape.height * shape.depth);
  }
  static std::vector<W> pack(const Grid& grid) { return pack_rows<W>(grid); }
  static void unpack(std::span<const W> words, Grid& grid) { unpack_rows<W>(words, grid); }
};

/// The state of `problem` in two device buffers of Layout::words() words; a derived class
/// enqueues generations (launch()) from in() to out(), swapping after each launch.
template <class Layout> class BufferedSimulator : public Simulator {
public:
  using Word = typename Layout::Word;

  void upload(const Grid& grid) override {
    if constexpr (std::is_same_v<Layout, CellBytes>) {
      copy_in(grid.data());
    } else {
      copy_in(Layout::pack(grid).data());
    }
  }

  Grid download() override {
    Grid grid(problem_.shape);
    if constexpr (std::is_same_v<Layout, CellBytes>) {
      copy_out(grid.data());
    } else {
      std::vector<Word> words(this->words());
      copy_out(words.data());
      Layout::unpack(std::span<const Word>(words), grid);
    }
    return grid;
  }

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
  explicit BufferedSimulator(const Problem& problem)
      : problem_(problem), buffers_{DeviceBuffer<Word>(Layout::words(problem.shape)),
                                    DeviceBuffer<Word>(Layout::words(problem.shape))} {}

  [[nodiscard]] const Problem& problem() const { return problem_; }
  [[nodiscard]] bool torus() const { return problem_.boundary == Boundary::torus; }
  [[nodiscard]] std::size_t words() const { return buffers_[0].size(); }
  [[nodiscard]] std::size_t state_bytes() const { return buffers_[0].bytes(); }
  [[nodiscard]] cudaStream_t stream() const { return stream_.get(); }
  void synchronize() const { stream_.synchronize(); }

  /// The buffer that holds the current generation, and the other one.
  [[nodiscard]] Word* in() { return buffers_[current_].data(); }
  [[nodiscard]] const Word* in() const { return buffers_[current_].data(); }
  [[nodiscard]] Word* out() { return buffers_[1 - current_].data(); }
  /// After a launch from in() to out(): out() holds the current generation.
  void swap() { current_ = 1 - current_; }

  /// Enqueues `generations` generations on stream(), each launch from in() to out()
  /// followed by swap(); launches() and each_generation() are the usual loops.
  virtual void launch(std::uint64_t generations) = 0;

  /// Launches until `generations` are done: `one(in, out, left)` enqueues one launch of at
  /// most `left` generations from `in` to `out` on stream() and returns how many it does.
  template <class OneLaunch> void launches(std::uint64_t generations, OneLaunch one) {
    for (std::uint64_t done = 0; done < generations;) {
      const auto did = static_cast<std::uint64_t>(one(in(), out(), generations - done));
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      swap();
      done += did;
    }
  }

  /// One launch per generation: `step(in, out)` enqueues it on stream().
  template <class Step> void each_generation(std::uint64_t generations, Step step) {
    launches(generations, [&](const Word* from, Word* to, std::uint64_t /*left*/) {
      step(from, to);
      return 1;
    });
  }

  /// Keys added to device(), e.g. a parameter the simulator chose itself.
  [[nodiscard]] virtual std::map<std::string, std::string> device_extras() const { return {}; }

private:
  /// The state from `words()` host words, and back.
  void copy_in(const Word* host) {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(in(), host, state_bytes(), cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }
  void copy_out(Word* host) const {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(host, in(), state_bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }

  Problem problem_;
  Stream stream_;
  EventTimer timer_;
  std::array<DeviceBuffer<Word>, 2> buffers_;
  int current_ = 0;
};

} // namespace lifebench::cuda
