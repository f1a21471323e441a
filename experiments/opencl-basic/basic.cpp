// Seed 000's first OpenCL kernel (section "OpenCL"): the packed-bit adder logic
// of the CPU version, one 32-bit word per work-item, one generation per launch,
// two global buffers swapped between launches. The kernel is basic.cl.
#include "lifebench/experiment.hpp"
#include "opencl/opencl.hpp"
#include "opencl/sources.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench {
namespace {

constexpr std::int64_t kBits = 32; // cells per word

class BasicSimulator final : public Simulator {
public:
  explicit BasicSimulator(const Problem& problem)
      : problem_(problem), words_per_row_(problem.shape.width / kBits),
        words_(static_cast<std::size_t>(words_per_row_ * problem.shape.height)),
        runtime_(opencl::Runtime::get()) {
    opencl::call("opencl-basic: setting up", [&] {
      queue_ = runtime_.profiling_queue();
      // Rule and boundary are compile-time constants of the kernel; the runtime
      // caches the program, so each combination is compiled once per process.
      const std::string options =
          "-DLIFE_BIRTH=" + std::to_string(problem.rule.birth) +
          " -DLIFE_SURVIVE=" + std::to_string(problem.rule.survive) +
          " -DLIFE_TORUS=" + (problem.boundary == Boundary::torus ? "1" : "0");
      const cl::Program program = runtime_.program("basic.cl", opencl::source("basic.cl"), options);
      const std::size_t bytes = words_ * sizeof(cl_uint);
      for (auto& buffer : buffers_)
        buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, bytes);
      // Two kernels with their arguments bound once: steps[i] reads buffers_[i]
      // and writes the other, so swapping the buffers is choosing the kernel.
      for (int i = 0; i < 2; ++i) {
        steps_[i] = cl::Kernel(program, "life_step");
        steps_[i].setArg(0, buffers_[i]);
        steps_[i].setArg(1, buffers_[1 - i]);
        steps_[i].setArg(2, static_cast<cl_uint>(words_per_row_));
        steps_[i].setArg(3, static_cast<cl_uint>(problem.shape.height));
      }
    });
  }

  void upload(const Grid& grid) override {
    std::vector<cl_uint> words(words_, 0);
    const std::uint8_t* cells = grid.data();
    for (std::size_t i = 0; i < words_; ++i) {
      cl_uint word = 0;
      for (std::int64_t bit = 0; bit < kBits; ++bit) {
        word |= static_cast<cl_uint>(cells[i * kBits + bit] & 1U) << (kBits - 1 - bit);
      }
      words[i] = word;
    }
    opencl::call("opencl-basic: upload", [&] {
      queue_.enqueueWriteBuffer(buffers_[current_], CL_TRUE, 0, words_ * sizeof(cl_uint),
                                words.data());
    });
  }

  Grid download() override {
    std::vector<cl_uint> words(words_);
    opencl::call("opencl-basic: download", [&] {
      queue_.enqueueReadBuffer(buffers_[current_], CL_TRUE, 0, words_ * sizeof(cl_uint),
                               words.data());
    });
    Grid grid(problem_.shape);
    std::uint8_t* cells = grid.data();
    for (std::size_t i = 0; i < words_; ++i) {
      for (std::int64_t bit = 0; bit < kBits; ++bit) {
        cells[i * kBits + bit] = static_cast<std::uint8_t>((words[i] >> (kBits - 1 - bit)) & 1U);
      }
    }
    return grid;
  }

  void advance(std::uint64_t generations) override {
    opencl::call("opencl-basic: advance", [&] {
      enqueue(generations, nullptr, nullptr);
      queue_.finish();
    });
  }

  double timed_advance(std::uint64_t generations) override {
    if (generations == 0) return 0.0;
    return opencl::call("opencl-basic: advance", [&] {
      cl::Event first;
      cl::Event last;
      enqueue(generations, &first, &last);
      return opencl::elapsed_seconds(first, last);
    });
  }

  [[nodiscard]] std::string clock() const override { return "opencl_events"; }
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    return opencl::device_info(runtime_);
  }
  /// Each word read once and written once: the least a one-bit-per-cell step moves.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return 2.0 * static_cast<double>(words_ * sizeof(cl_uint));
  }

private:
  /// One launch per generation over the whole grid (global size = words per row x
  /// rows, as the blog's "global work size equal to the dimensions of the grid");
  /// the work-group size is the implementation's choice. Events, when asked for,
  /// mark the first and the last launch.
  void enqueue(std::uint64_t generations, cl::Event* first, cl::Event* last) {
    const cl::NDRange global(static_cast<std::size_t>(words_per_row_),
                             static_cast<std::size_t>(problem_.shape.height));
    for (std::uint64_t g = 0; g < generations; ++g) {
      cl::Event* event = g == 0 ? first : (g + 1 == generations ? last : nullptr);
      queue_.enqueueNDRangeKernel(steps_[current_], cl::NullRange, global, cl::NullRange, nullptr,
                                  event);
      current_ = 1 - current_;
    }
    // A single launch is both the first and the last.
    if (generations == 1 && first != nullptr && last != nullptr) *last = *first;
  }

  Problem problem_;
  std::int64_t words_per_row_;
  std::size_t words_;
  opencl::Runtime& runtime_;
  cl::CommandQueue queue_;
  std::array<cl::Buffer, 2> buffers_;
  std::array<cl::Kernel, 2> steps_;
  int current_ = 0;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  // The harness refuses other families (ExperimentInfo::family) before asking.
  const Shape& shape = problem.shape;
  if (shape.width % kBits != 0) {
    return "width must be a multiple of 32: each work-item updates one 32-bit word of 32 "
           "horizontally adjacent cells (width is " +
           std::to_string(shape.width) + ")";
  }
  if (shape.cells() / kBits > std::numeric_limits<cl_uint>::max()) {
    return std::string("fewer than 2^32 words (the kernel indexes words with 32-bit integers)");
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "opencl-basic",
    .family = "square",
    .backend = "opencl",
    .source = "seed 000 \"OpenCL\" (first kernel) with \"Back to a Packed Representation Using "
              "Bits\"",
    .technique = "32 cells per 32-bit word, bit-sliced adders, one word per work-item, one "
                 "generation per launch, global memory",
    .axes = {},
    .unavailable = [] { return lifebench::opencl::unavailable_reason(); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params&) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::BasicSimulator>(problem);
    }})
