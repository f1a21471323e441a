// Seed 000's first OpenCL kernel (section "OpenCL"): the packed-bit adder logic
// of the CPU version, one 32-bit word per work-item, one generation per launch,
// two global buffers swapped between launches. The kernel is basic.cl.
#include "lifebench/experiment.hpp"
#include "opencl/opencl.hpp"
#include "opencl/sources.hpp"
#include "opencl/word_grid.hpp"

#include <array>
#include <cstdint>
#include <memory>

namespace lifebench {
namespace {

class BasicSimulator final : public opencl::WordGridSimulator {
public:
  BasicSimulator(const Problem& problem, const Params& params)
      : WordGridSimulator("opencl-basic", problem, params) {
    opencl::call("opencl-basic: setting up", [&] {
      // Rule and boundary are compile-time constants of the kernel; the runtime
      // caches the program, so each combination is compiled once per process.
      const cl::Program program =
          runtime().program("basic.cl", opencl::source("basic.cl"), opencl::rule_options(problem));
      // Two kernels with their arguments bound once: steps_[i] reads buffers()[i]
      // and writes the other, so swapping the buffers is choosing the kernel.
      for (int i = 0; i < 2; ++i) {
        steps_[i] = cl::Kernel(program, "life_step");
        steps_[i].setArg(0, buffers()[i]);
        steps_[i].setArg(1, buffers()[1 - i]);
        steps_[i].setArg(2, static_cast<cl_uint>(words_per_row()));
        steps_[i].setArg(3, static_cast<cl_uint>(problem.shape.height));
      }
    });
  }

private:
  [[nodiscard]] std::uint32_t steps_per_launch() const override { return 1; }

  /// One launch per generation over the whole grid (global size = words per row x
  /// rows, as the blog's "global work size equal to the dimensions of the grid");
  /// the work-group size is the implementation's choice.
  void enqueue_launch(int from, std::uint32_t /*steps*/, cl::Event* event) override {
    const cl::NDRange global(static_cast<std::size_t>(words_per_row()),
                             static_cast<std::size_t>(problem().shape.height));
    queue().enqueueNDRangeKernel(steps_[from], cl::NullRange, global, cl::NullRange, nullptr,
                                 event);
  }

  std::array<cl::Kernel, 2> steps_;
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"opencl-basic", "square", "opencl",
              "seed 000 \"OpenCL\" (first kernel) with \"Back to a Packed Representation Using "
              "Bits\"",
              "32 cells per 32-bit word, bit-sliced adders, one word per work-item, one "
              "generation per launch, global memory"},
    .axes = lifebench::opencl::selection_axes(),
    .unavailable = [] { return lifebench::opencl::unavailable_reason(); },
    .unsupported = lifebench::opencl::word_grid_unsupported,
    .make = lifebench::make_simulator<lifebench::BasicSimulator>})
