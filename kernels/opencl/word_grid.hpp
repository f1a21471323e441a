// What the OpenCL experiments of seed 000 share on the host: the platform and
// device axes, the checks every 32-cell-word grid makes, and a Simulator that
// keeps the grid as 32-bit words in two device buffers and advances it by
// launches of the experiment's kernel, timed with profiling events.
//
// Layout: packed rows of impl's packed.hpp with 32-bit words (row y is width/32
// words, bit b of word k is cell x = 32k + b: the leftmost cell in the least
// significant bit).
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"
#include "opencl/opencl.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::opencl {

inline constexpr std::int64_t kWordBits = 32; // cells per word

/// The axes that choose where an experiment runs, appended to its own.
inline std::vector<Axis> selection_axes() {
  return {{"platform",
           "",
           {},
           "substring of the OpenCL platform name, any case (e.g. NVIDIA, Portable); empty: "
           "LIFEBENCH_OPENCL_PLATFORM, else the first platform with a GPU"},
          {"device",
           "",
           {},
           "substring of the OpenCL device name, any case; empty: LIFEBENCH_OPENCL_DEVICE, else "
           "the first GPU (or the first device)"}};
}

inline Selection selection(const Params& params) {
  return {params.get("platform"), params.get("device")};
}

/// The device `params` select, for limits that decide what is supported; throws
/// Error when it names none (check selection_problem() first).
inline const cl::Device& selected_device(const Params& params) {
  return Runtime::get(selection(params)).device();
}

/// Why a word grid cannot run: no such device, a width not a multiple of 32, more
/// words than 32-bit indices reach, or a buffer larger than the device allocates.
inline std::optional<std::string> word_grid_unsupported(const Problem& problem,
                                                        const Params& params) {
  if (auto reason = selection_problem(selection(params))) return reason;
  const Shape& shape = problem.shape;
  if (shape.width % kWordBits != 0) {
    return "width must be a multiple of 32: each work-item updates 32-bit words of 32 "
           "horizontally adjacent cells (width is " +
           std::to_string(shape.width) + ")";
  }
  if (shape.cells() / kWordBits > std::numeric_limits<cl_uint>::max() ||
      shape.height > std::numeric_limits<cl_int>::max() / 2) {
    return std::string("fewer than 2^32 words and 2^30 rows (the kernels index with 32-bit "
                       "integers)");
  }
  const auto bytes = static_cast<std::uint64_t>(shape.cells() / kWordBits * sizeof(cl_uint));
  const auto max_alloc = call("querying the OpenCL device", [&] {
    return selected_device(params).getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  });
  if (bytes > max_alloc) {
    return "the grid takes " + std::to_string(bytes) + " bytes, more than the device allocates " +
           "at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE = " + std::to_string(max_alloc) + ")";
  }
  return std::nullopt;
}

/// The -D options of the rule and the boundary (life.cl, LIFE_TORUS).
inline std::string rule_options(const Problem& problem) {
  return "-DLIFE_BIRTH=" + std::to_string(problem.rule.birth) +
         " -DLIFE_SURVIVE=" + std::to_string(problem.rule.survive) +
         " -DLIFE_TORUS=" + (problem.boundary == Boundary::torus ? "1" : "0");
}

/// The grid in two device buffers of words; a derived class enqueues launches that
/// advance it by up to steps_per_launch() generations from one buffer into the other.
class WordGridSimulator : public Simulator {
public:
  WordGridSimulator(std::string name, const Problem& problem, const Params& params)
      : name_(std::move(name)), problem_(problem), words_per_row_(problem.shape.width / kWordBits),
        words_(static_cast<std::size_t>(words_per_row_ * problem.shape.height)),
        runtime_(Runtime::get(selection(params))) {
    call(name_ + ": setting up", [&] {
      queue_ = runtime_.profiling_queue();
      for (auto& buffer : buffers_)
        buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, words_ * sizeof(cl_uint));
    });
  }

  void upload(const Grid& grid) override {
    const std::vector<cl_uint> words = pack_rows<cl_uint>(grid);
    call(name_ + ": upload", [&] {
      queue_.enqueueWriteBuffer(buffers_[current_], CL_TRUE, 0, words_ * sizeof(cl_uint),
                                words.data());
    });
  }

  Grid download() override {
    std::vector<cl_uint> words(words_);
    call(name_ + ": download", [&] {
      queue_.enqueueReadBuffer(buffers_[current_], CL_TRUE, 0, words_ * sizeof(cl_uint),
                               words.data());
    });
    Grid grid(problem_.shape);
    unpack_rows<cl_uint>(words, grid);
    return grid;
  }

  void advance(std::uint64_t generations) override {
    call(name_ + ": advance", [&] {
      enqueue(generations, nullptr, nullptr);
      queue_.finish();
    });
  }

  double timed_advance(std::uint64_t generations) override {
    if (generations == 0) return 0.0;
    return call(name_ + ": advance", [&] {
      cl::Event first;
      cl::Event last;
      enqueue(generations, &first, &last);
      return elapsed_seconds(first, last);
    });
  }

  [[nodiscard]] std::string clock() const override { return "opencl_events"; }
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    return device_info(runtime_);
  }
  /// Each word read once and written once per launch: the least the technique moves.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return 2.0 * static_cast<double>(words_ * sizeof(cl_uint)) / steps_per_launch();
  }

protected:
  /// Most generations one launch advances.
  [[nodiscard]] virtual std::uint32_t steps_per_launch() const = 0;
  /// Enqueues one launch advancing `steps` (1 ... steps_per_launch()) generations from
  /// buffers()[from] into buffers()[1 - from], with `event` (may be null) marking it.
  virtual void enqueue_launch(int from, std::uint32_t steps, cl::Event* event) = 0;

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const Problem& problem() const { return problem_; }
  [[nodiscard]] std::int64_t words_per_row() const { return words_per_row_; }
  [[nodiscard]] Runtime& runtime() const { return runtime_; }
  [[nodiscard]] cl::CommandQueue& queue() { return queue_; }
  [[nodiscard]] const std::array<cl::Buffer, 2>& buffers() const { return buffers_; }

private:
  /// Launches of steps_per_launch() generations, the last one taking the rest; the
  /// events, when asked for, mark the first and the last launch.
  void enqueue(std::uint64_t generations, cl::Event* first, cl::Event* last) {
    const std::uint64_t per_launch = steps_per_launch();
    const std::uint64_t launches = (generations + per_launch - 1) / per_launch;
    for (std::uint64_t launch = 0; launch < launches; ++launch) {
      const auto steps =
          static_cast<std::uint32_t>(std::min(per_launch, generations - launch * per_launch));
      cl::Event* event = launch == 0 ? first : (launch + 1 == launches ? last : nullptr);
      enqueue_launch(current_, steps, event);
      current_ = 1 - current_;
    }
    // A single launch is both the first and the last.
    if (launches == 1 && first != nullptr && last != nullptr) *last = *first;
  }

  std::string name_;
  Problem problem_;
  std::int64_t words_per_row_;
  std::size_t words_;
  Runtime& runtime_;
  cl::CommandQueue queue_;
  std::array<cl::Buffer, 2> buffers_;
  int current_ = 0;
};

} // namespace lifebench::opencl
