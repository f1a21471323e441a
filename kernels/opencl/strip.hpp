// Host side of seed 000's multi-step OpenCL kernels (strip.cl): the simulator and
// the experiment description that opencl-multistep, opencl-local and opencl-wpt
// share; each experiment's .cl file picks the exchange (global or local memory)
// and includes strip.cl.
#pragma once

#include "lifebench/experiment.hpp"
#include "opencl/opencl.hpp"
#include "opencl/sources.hpp"
#include "opencl/word_grid.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::opencl {

/// What distinguishes the three experiments.
struct StripTechnique {
  About about;         ///< the experiment's (a square one, on the opencl backend)
  std::string kernel;  ///< its .cl file (sets EXCHANGE_LOCAL, includes strip.cl)
  bool exchange_local; ///< edges swapped through local memory (else a global buffer)
  bool has_work_per_thread;
};

/// The launch geometry one configuration asks for.
struct StripShape {
  std::int64_t steps;      ///< steps_per_launch = rows of padding (PAD)
  std::int64_t group;      ///< work-items per work-group (GROUP)
  std::int64_t wpt;        ///< rows per work-item (WPT)
  std::int64_t edges;      ///< rows a work-item swaps per step: 1 if wpt is 1, else 2
  std::int64_t owned_rows; ///< rows a work-group writes back

  StripShape(const StripTechnique& technique, const Params& params)
      : steps(params.get_int("steps_per_launch")), group(params.get_int("work_group")),
        wpt(technique.has_work_per_thread ? params.get_int("work_per_thread") : 1),
        edges(wpt == 1 ? 1 : 2), owned_rows(group * wpt - 2 * steps) {}

  /// Bytes of the double-buffered edges one work-group swaps through.
  [[nodiscard]] std::uint64_t exchange_bytes() const {
    return static_cast<std::uint64_t>(2 * edges * group) * sizeof(cl_uint2);
  }
  [[nodiscard]] std::int64_t groups_down(std::int64_t height) const {
    return (height + owned_rows - 1) / owned_rows;
  }
};

/// The technique's program for one configuration (built once per process, then cached).
inline cl::Program strip_program(const StripTechnique& technique, const Problem& problem,
                                 const StripShape& shape, Runtime& runtime) {
  const std::string options = rule_options(problem) + " -DPAD=" + std::to_string(shape.steps) +
                              " -DGROUP=" + std::to_string(shape.group) +
                              " -DWPT=" + std::to_string(shape.wpt);
  return runtime.program(technique.kernel, source(technique.kernel), options);
}

class StripSimulator final : public WordGridSimulator {
public:
  StripSimulator(const StripTechnique& technique, const Problem& problem, const Params& params)
      : WordGridSimulator(technique.about.name, problem, params), shape_(technique, params) {
    call(technique.about.name + ": setting up", [&] {
      const cl::Program program = strip_program(technique, problem, shape_, runtime());
      if (!technique.exchange_local) {
        exchange_ = cl::Buffer(runtime().context(), CL_MEM_READ_WRITE,
                               shape_.exchange_bytes() *
                                   static_cast<std::uint64_t>(
                                       words_per_row() * shape_.groups_down(problem.shape.height)));
      }
      for (int i = 0; i < 2; ++i) {
        launches_[i] = cl::Kernel(program, "life_strip");
        launches_[i].setArg(0, buffers()[i]);
        launches_[i].setArg(1, buffers()[1 - i]);
        launches_[i].setArg(2, static_cast<cl_uint>(words_per_row()));
        launches_[i].setArg(3, static_cast<cl_uint>(problem.shape.height));
        if (!technique.exchange_local) launches_[i].setArg(5, exchange_);
      }
    });
  }

private:
  [[nodiscard]] std::uint32_t steps_per_launch() const override {
    return static_cast<std::uint32_t>(shape_.steps);
  }

  /// Work-groups of `group` work-items stacked down one word column each: an NDRange
  /// of (group x work-groups down, words per row), local size (group, 1).
  void enqueue_launch(int from, std::uint32_t steps, cl::Event* event) override {
    launches_[from].setArg(4, static_cast<cl_uint>(steps));
    const cl::NDRange global(
        static_cast<std::size_t>(shape_.group * shape_.groups_down(problem().shape.height)),
        static_cast<std::size_t>(words_per_row()));
    const cl::NDRange local(static_cast<std::size_t>(shape_.group), 1);
    queue().enqueueNDRangeKernel(launches_[from], cl::NullRange, global, local, nullptr, event);
  }

  StripShape shape_;
  cl::Buffer exchange_;
  std::array<cl::Kernel, 2> launches_;
};

/// Why a configuration cannot run: the word grid's limits, parameters out of range,
/// or a work-group or local memory larger than the device offers.
inline std::optional<std::string> strip_unsupported(const StripTechnique& technique,
                                                    const Problem& problem, const Params& params) {
  if (auto reason = word_grid_unsupported(problem, params)) return reason;
  std::optional<StripShape> parsed;
  try {
    parsed.emplace(technique, params);
  } catch (const Error& error) {
    return error.what(); // a parameter that is not an integer
  }
  const StripShape& shape = *parsed;
  if (shape.steps < 1 || shape.steps > 16) {
    return "steps_per_launch must be 1 ... 16: the half-column shift leaves 16 cells of "
           "padding on each side of a word";
  }
  if (shape.wpt < 1 || shape.wpt > 32) return std::string("work_per_thread must be 1 ... 32");
  if (shape.group < 1 || shape.owned_rows < 1) {
    return "work_group x work_per_thread must exceed 2 x steps_per_launch (the rows of "
           "padding at both ends of a work-group)";
  }
  return call("querying the OpenCL device", [&]() -> std::optional<std::string> {
    const cl::Device& device = selected_device(params);
    const auto max_group = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    if (static_cast<std::size_t>(shape.group) > max_group) {
      return "work_group=" + std::to_string(shape.group) + " exceeds the device's " +
             std::to_string(max_group) + " work-items per work-group";
    }
    if (technique.exchange_local) {
      const auto local_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      if (shape.exchange_bytes() > local_bytes) {
        return "the work-group's edges take " + std::to_string(shape.exchange_bytes()) +
               " bytes of local memory, more than the device's " + std::to_string(local_bytes);
      }
    } else {
      const auto bytes = shape.exchange_bytes() *
                         static_cast<std::uint64_t>(problem.shape.width / kWordBits *
                                                    shape.groups_down(problem.shape.height));
      const auto max_alloc = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      if (bytes > max_alloc) {
        return "the exchange buffer takes " + std::to_string(bytes) +
               " bytes, more than the device allocates at once (" + std::to_string(max_alloc) + ")";
      }
    }
    // The device may allow fewer work-items for this kernel than for any (registers).
    const cl::Kernel kernel(
        strip_program(technique, problem, shape, Runtime::get(selection(params))), "life_strip");
    const auto kernel_limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    if (static_cast<std::size_t>(shape.group) > kernel_limit) {
      return "work_group=" + std::to_string(shape.group) + " exceeds the " +
             std::to_string(kernel_limit) + " work-items this kernel allows on the device";
    }
    return std::nullopt;
  });
}

inline ExperimentInfo strip_experiment(const StripTechnique& technique) {
  std::vector<Axis> axes = {
      {"steps_per_launch",
       "16",
       {},
       "generations per launch, 1 ... 16 (also the rows of padding at each end of a "
       "work-group); the blog's 16",
       AxisRole::steps_per_launch},
      {"work_group",
       "256",
       {},
       "work-items per work-group, stacked vertically (the blog's 512; NVIDIA's OpenCL "
       "compiler allows these kernels at most 256 on the H100)"},
  };
  if (technique.has_work_per_thread) {
    axes.push_back({"work_per_thread",
                    "16",
                    {},
                    "vertically stacked rows per work-item, 1 ... 32 (the blog's ~16)"});
  }
  for (auto& axis : selection_axes())
    axes.push_back(std::move(axis));
  return ExperimentInfo{
      .about = technique.about,
      .axes = std::move(axes),
      .unavailable = [] { return unavailable_reason(); },
      .unsupported = [technique](const Problem& problem, const Params& params)
          -> std::optional<std::string> { return strip_unsupported(technique, problem, params); },
      .make = [technique](const Problem& problem,
                          const Params& params) -> std::unique_ptr<Simulator> {
        return std::make_unique<StripSimulator>(technique, problem, params);
      }};
}

} // namespace lifebench::opencl
