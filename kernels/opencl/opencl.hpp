// The one way lifebench includes OpenCL-CLHPP (STYLE rule 5), with what every
// OpenCL experiment needs around it (compiled once, in opencl.cpp): the platform and device chosen
// by name, the reason OpenCL cannot run here, a context per chosen device with a cache of built
// programs, build logs and OpenCL errors turned into lifebench::Error, profiling-event timing and
// the device description.
//
// A Selection names the platform and the device by substrings of their names (any
// case). An empty one falls back on the environment:
//
//   LIFEBENCH_OPENCL_PLATFORM  substring of the platform name
//   LIFEBENCH_OPENCL_DEVICE    substring of the device name
//
// With no name at all, the first GPU of any platform is taken, else the first
// device of the first platform that has one: ICD loaders list platforms in no
// fixed order, and a GPU machine usually has PoCL's CPU platform installed too.
#pragma once

// OpenCL 1.2 is all these experiments use, and every platform we meet (PoCL 3.1, NVIDIA)
// offers it. A higher target with minimum 120 does not compile with Debian 12's CLHPP
// (2023.02.06): its queue constructors then call detail::getContextPlatformVersion,
// which is only defined for a minimum below 120 (KhronosGroup/OpenCL-CLHPP#108, fixed
// by #245 after that release).
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include "lifebench/error.hpp"

#include <CL/opencl.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lifebench::opencl {

/// "CL_OUT_OF_RESOURCES" for -5; "OpenCL error -1234" for a code it does not know.
std::string error_name(cl_int code);

/// "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)" (CLHPP puts the call name in what()).
std::string describe(const cl::Error& error);

/// Runs `body`, turning an OpenCL error into lifebench::Error "<context>: <call> failed: <code>".
template <class Body> decltype(auto) call(std::string_view context, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const cl::Error& error) {
    throw Error(std::string(context) + ": " + describe(error));
  }
}

/// Substrings of the platform's and the device's names; empty: the environment's.
struct Selection {
  std::string platform;
  std::string device;
};

/// Why no OpenCL device can be used at all (no ICD, no platform, no device), or
/// nothing when one can, whatever its name.
std::optional<std::string> unavailable_reason();

/// Why `selection` (empty: the environment's names) names no device, listing what
/// exists, or nothing when it names one.
std::optional<std::string> selection_problem(const Selection& selection);

/// A chosen platform and device with one context, shared by every simulator of the
/// process that selects it, and the programs built on it, so that running many
/// simulators (verification, conformance) compiles each kernel variant once.
class Runtime {
public:
  /// The runtime of the device `selection` names; throws Error with
  /// selection_problem()'s text if it names none.
  static Runtime& get(const Selection& selection);

  [[nodiscard]] const cl::Platform& platform() const { return platform_; }
  [[nodiscard]] const cl::Device& device() const { return device_; }
  [[nodiscard]] const cl::Context& context() const { return context_; }

  /// A new in-order queue on the device with profiling enabled (for elapsed_seconds()).
  [[nodiscard]] cl::CommandQueue profiling_queue() const;

  /// `source` built with `options` for the device, from the cache when it was built
  /// before. A failed build prints the compiler's log to stderr and throws Error
  /// carrying the log on one line; `name` (the .cl file) labels both.
  cl::Program program(const std::string& name, const std::string& source,
                      const std::string& options);

private:
  explicit Runtime(const Selection& selection);

  [[nodiscard]] cl::Program build(const std::string& name, const std::string& source,
                                  const std::string& options) const;

  cl::Platform platform_;
  cl::Device device_;
  cl::Context context_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

/// Device seconds from the start of `first` to the end of `last` (events of a
/// profiling queue; `last` is waited for).
double elapsed_seconds(const cl::Event& first, const cl::Event& last);

/// The runtime's platform and device, for Simulator::device().
std::map<std::string, std::string> device_info(const Runtime& runtime);

} // namespace lifebench::opencl
