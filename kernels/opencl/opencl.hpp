// The one way lifebench includes OpenCL-CLHPP (STYLE rule 5), with what every
// OpenCL experiment needs around it: the platform and device chosen by name, the
// reason OpenCL cannot run here, a context per chosen device with a cache of
// built programs, build logs and OpenCL errors turned into lifebench::Error,
// profiling-event timing and the device description.
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
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifebench::opencl {

/// "CL_OUT_OF_RESOURCES" for -5; "OpenCL error -1234" for a code it does not know.
inline std::string error_name(cl_int code) {
  static const std::map<cl_int, const char*> names = {
      {CL_SUCCESS, "CL_SUCCESS"},
      {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
      {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
      {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
      {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
      {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
      {CL_PROFILING_INFO_NOT_AVAILABLE, "CL_PROFILING_INFO_NOT_AVAILABLE"},
      {CL_MEM_COPY_OVERLAP, "CL_MEM_COPY_OVERLAP"},
      {CL_IMAGE_FORMAT_MISMATCH, "CL_IMAGE_FORMAT_MISMATCH"},
      {CL_IMAGE_FORMAT_NOT_SUPPORTED, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
      {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
      {CL_MAP_FAILURE, "CL_MAP_FAILURE"},
      {CL_MISALIGNED_SUB_BUFFER_OFFSET, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
       "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {CL_COMPILE_PROGRAM_FAILURE, "CL_COMPILE_PROGRAM_FAILURE"},
      {CL_LINKER_NOT_AVAILABLE, "CL_LINKER_NOT_AVAILABLE"},
      {CL_LINK_PROGRAM_FAILURE, "CL_LINK_PROGRAM_FAILURE"},
      {CL_DEVICE_PARTITION_FAILED, "CL_DEVICE_PARTITION_FAILED"},
      {CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
      {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
      {CL_INVALID_DEVICE_TYPE, "CL_INVALID_DEVICE_TYPE"},
      {CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM"},
      {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
      {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
      {CL_INVALID_QUEUE_PROPERTIES, "CL_INVALID_QUEUE_PROPERTIES"},
      {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
      {CL_INVALID_HOST_PTR, "CL_INVALID_HOST_PTR"},
      {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
      {CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
      {CL_INVALID_IMAGE_SIZE, "CL_INVALID_IMAGE_SIZE"},
      {CL_INVALID_SAMPLER, "CL_INVALID_SAMPLER"},
      {CL_INVALID_BINARY, "CL_INVALID_BINARY"},
      {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
      {CL_INVALID_PROGRAM, "CL_INVALID_PROGRAM"},
      {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
      {CL_INVALID_KERNEL_DEFINITION, "CL_INVALID_KERNEL_DEFINITION"},
      {CL_INVALID_KERNEL, "CL_INVALID_KERNEL"},
      {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
      {CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE"},
      {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
      {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
      {CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION"},
      {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
      {CL_INVALID_WORK_ITEM_SIZE, "CL_INVALID_WORK_ITEM_SIZE"},
      {CL_INVALID_GLOBAL_OFFSET, "CL_INVALID_GLOBAL_OFFSET"},
      {CL_INVALID_EVENT_WAIT_LIST, "CL_INVALID_EVENT_WAIT_LIST"},
      {CL_INVALID_EVENT, "CL_INVALID_EVENT"},
      {CL_INVALID_OPERATION, "CL_INVALID_OPERATION"},
      {CL_INVALID_GL_OBJECT, "CL_INVALID_GL_OBJECT"},
      {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
      {CL_INVALID_MIP_LEVEL, "CL_INVALID_MIP_LEVEL"},
      {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
      {CL_INVALID_PROPERTY, "CL_INVALID_PROPERTY"},
      {CL_INVALID_IMAGE_DESCRIPTOR, "CL_INVALID_IMAGE_DESCRIPTOR"},
      {CL_INVALID_COMPILER_OPTIONS, "CL_INVALID_COMPILER_OPTIONS"},
      {CL_INVALID_LINKER_OPTIONS, "CL_INVALID_LINKER_OPTIONS"},
      {CL_INVALID_DEVICE_PARTITION_COUNT, "CL_INVALID_DEVICE_PARTITION_COUNT"},
      // Codes of OpenCL 2.0 and later and of extensions, which the 1.2 headers do not define.
      {-69, "CL_INVALID_PIPE_SIZE"},
      {-70, "CL_INVALID_DEVICE_QUEUE"},
      {-71, "CL_INVALID_SPEC_ID"},
      {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
  const auto found = names.find(code);
  return found != names.end() ? found->second : "OpenCL error " + std::to_string(code);
}

/// "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)" (CLHPP puts the call name in what()).
inline std::string describe(const cl::Error& error) {
  return std::string(error.what()) + " failed: " + error_name(error.err()) + " (" +
         std::to_string(error.err()) + ")";
}

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

namespace detail {

inline std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// Whether `name` contains `wanted`, ignoring case; an empty `wanted` matches everything.
inline bool matches(const std::string& name, const std::string& wanted) {
  return lower(name).find(lower(wanted)) != std::string::npos;
}

inline std::string environment(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

/// Devices of a platform; none (rather than CL_DEVICE_NOT_FOUND) when it has none.
inline std::vector<cl::Device> devices_of(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  } catch (const cl::Error& error) {
    if (error.err() != CL_DEVICE_NOT_FOUND) throw;
    devices.clear();
  }
  return devices;
}

/// Info strings come back with their terminating NUL on some platforms.
inline std::string clean(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' '))
    text.pop_back();
  return text;
}

/// The names asked for: the selection's, else the environment's.
inline Selection wanted(const Selection& selection) {
  return {selection.platform.empty() ? environment("LIFEBENCH_OPENCL_PLATFORM")
                                     : selection.platform,
          selection.device.empty() ? environment("LIFEBENCH_OPENCL_DEVICE") : selection.device};
}

struct Choice {
  std::optional<std::pair<cl::Platform, cl::Device>> chosen;
  std::string reason; ///< why nothing was chosen
};

inline Choice choose(const Selection& selection) {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& error) {
    // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when no vendor ICD is installed.
    return {std::nullopt, "no OpenCL platform (" + describe(error) +
                              "; is an ICD such as pocl-opencl-icd installed?)"};
  }
  if (platforms.empty()) return {std::nullopt, "no OpenCL platform installed"};

  const Selection want = wanted(selection);
  const bool by_name = !want.platform.empty() || !want.device.empty();
  std::optional<std::pair<cl::Platform, cl::Device>> first_any;
  std::optional<std::pair<cl::Platform, cl::Device>> first_gpu;
  std::string listing;
  for (const auto& platform : platforms) {
    const std::string platform_name = clean(platform.getInfo<CL_PLATFORM_NAME>());
    listing += (listing.empty() ? "'" : "; '") + platform_name + "': ";
    const auto devices = devices_of(platform);
    if (devices.empty()) listing += "no devices";
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const std::string device_name = clean(devices[i].getInfo<CL_DEVICE_NAME>());
      listing += (i == 0 ? "'" : ", '") + device_name + "'";
      if (by_name) {
        if (!first_any && matches(platform_name, want.platform) &&
            matches(device_name, want.device)) {
          first_any.emplace(platform, devices[i]);
        }
        continue;
      }
      if (!first_any) first_any.emplace(platform, devices[i]);
      if (!first_gpu && (devices[i].getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0) {
        first_gpu.emplace(platform, devices[i]);
      }
    }
  }
  if (first_gpu) return {first_gpu, {}};
  if (first_any) return {first_any, {}};
  if (by_name) {
    // "platform 'NVIDIA' (from LIFEBENCH_OPENCL_PLATFORM) and device 'H100'", naming only what was
    // asked.
    const auto asked = [](const char* what, const std::string& name, const std::string& given,
                          const char* variable) {
      if (name.empty()) return std::string();
      return std::string(what) + " '" + name + "'" +
             (given.empty() ? std::string(" (from ") + variable + ")" : std::string());
    };
    const std::string platform =
        asked("platform", want.platform, selection.platform, "LIFEBENCH_OPENCL_PLATFORM");
    const std::string device =
        asked("device", want.device, selection.device, "LIFEBENCH_OPENCL_DEVICE");
    return {std::nullopt, "no OpenCL device matches " + platform +
                              (platform.empty() || device.empty() ? "" : " and ") + device +
                              "; platforms and devices: " + listing};
  }
  return {std::nullopt, "no OpenCL platform has a device; platforms: " + listing};
}

/// One line from a multi-line build log, for the exception's message.
inline std::string one_line(const std::string& text) {
  std::string line;
  bool pending_space = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      pending_space = !line.empty();
      continue;
    }
    if (pending_space) line += " | ";
    pending_space = false;
    line += c;
  }
  return line;
}

} // namespace detail

/// Why no OpenCL device can be used at all (no ICD, no platform, no device), or
/// nothing when one can, whatever its name.
inline std::optional<std::string> unavailable_reason() {
  try {
    auto choice = detail::choose(Selection{});
    if (choice.chosen) return std::nullopt;
    // Named devices that do not exist are the selection's fault (selection_problem()),
    // not the machine's: look again for any device at all.
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    for (const auto& platform : platforms) {
      if (!detail::devices_of(platform).empty()) return std::nullopt;
    }
    return choice.reason;
  } catch (const cl::Error& error) {
    return "OpenCL is unusable: " + describe(error);
  }
}

/// Why `selection` (empty: the environment's names) names no device, listing what
/// exists, or nothing when it names one.
inline std::optional<std::string> selection_problem(const Selection& selection) {
  try {
    auto choice = detail::choose(selection);
    if (choice.chosen) return std::nullopt;
    return choice.reason;
  } catch (const cl::Error& error) {
    return "OpenCL is unusable: " + describe(error);
  }
}

/// A chosen platform and device with one context, shared by every simulator of the
/// process that selects it, and the programs built on it, so that running many
/// simulators (verification, conformance) compiles each kernel variant once.
class Runtime {
public:
  /// The runtime of the device `selection` names; throws Error with
  /// selection_problem()'s text if it names none.
  static Runtime& get(const Selection& selection) {
    // Deliberately never destroyed: OpenCL objects released from static destructors,
    // after the ICD or the driver may have begun its own teardown, crash some platforms.
    static auto* runtimes =
        new std::map<std::pair<std::string, std::string>, std::unique_ptr<Runtime>>();
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    const Selection want = detail::wanted(selection);
    auto& runtime = (*runtimes)[{want.platform, want.device}];
    if (!runtime) runtime.reset(new Runtime(selection));
    return *runtime;
  }

  [[nodiscard]] const cl::Platform& platform() const { return platform_; }
  [[nodiscard]] const cl::Device& device() const { return device_; }
  [[nodiscard]] const cl::Context& context() const { return context_; }

  /// A new in-order queue on the device with profiling enabled (for elapsed_seconds()).
  [[nodiscard]] cl::CommandQueue profiling_queue() const {
    return call("creating an OpenCL queue",
                [&] { return cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE); });
  }

  /// `source` built with `options` for the device, from the cache when it was built
  /// before. A failed build prints the compiler's log to stderr and throws Error
  /// carrying the log on one line; `name` (the .cl file) labels both.
  cl::Program program(const std::string& name, const std::string& source,
                      const std::string& options) {
    const std::lock_guard lock(mutex_);
    const auto key = std::make_pair(source, options);
    if (const auto found = programs_.find(key); found != programs_.end()) return found->second;
    cl::Program built = build(name, source, options);
    programs_.emplace(key, built);
    return built;
  }

private:
  explicit Runtime(const Selection& selection) {
    auto choice = call("choosing an OpenCL device", [&] { return detail::choose(selection); });
    if (!choice.chosen) throw Error(choice.reason);
    platform_ = choice.chosen->first;
    device_ = choice.chosen->second;
    context_ = call("creating an OpenCL context", [&] { return cl::Context(device_); });
  }

  [[nodiscard]] cl::Program build(const std::string& name, const std::string& source,
                                  const std::string& options) const {
    cl::Program program =
        call("creating OpenCL program " + name, [&] { return cl::Program(context_, source); });
    try {
      program.build(device_, options.c_str());
    } catch (const cl::Error& error) {
      // CLHPP throws cl::BuildError with the device's log for a failed clBuildProgram;
      // other failures (bad options, out of resources) come as cl::Error: ask for the log.
      std::string log;
      if (const auto* build_error = dynamic_cast<const cl::BuildError*>(&error)) {
        for (const auto& [device, text] : build_error->getBuildLog()) {
          if (device() != nullptr) log += text; // old CLHPPs add an empty first entry
        }
      } else {
        try {
          log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
        } catch (const cl::Error&) {
          log.clear();
        }
      }
      log = detail::clean(log);
      std::cerr << "lifebench: OpenCL build log of " << name << " (options: " << options << "):\n"
                << (log.empty() ? "(empty)" : log) << "\n";
      throw Error("building OpenCL program " + name + " failed: " + describe(error) +
                  "; build log: " + (log.empty() ? "(empty)" : detail::one_line(log)));
    }
    return program;
  }

  cl::Platform platform_;
  cl::Device device_;
  cl::Context context_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

/// Device seconds from the start of `first` to the end of `last` (events of a
/// profiling queue; `last` is waited for).
inline double elapsed_seconds(const cl::Event& first, const cl::Event& last) {
  return call("reading OpenCL profiling events", [&] {
    last.wait();
    const cl_ulong start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    // A zero or negative span would be published as an infinite throughput.
    if (end <= start) {
      throw Error("OpenCL profiling gave an end time (" + std::to_string(end) +
                  " ns) not after the start (" + std::to_string(start) + " ns)");
    }
    return static_cast<double>(end - start) * 1e-9;
  });
}

/// The runtime's platform and device, for Simulator::device().
inline std::map<std::string, std::string> device_info(const Runtime& runtime) {
  return call("querying the OpenCL device", [&] {
    const cl::Platform& platform = runtime.platform();
    const cl::Device& device = runtime.device();
    const cl_device_type type = device.getInfo<CL_DEVICE_TYPE>();
    const std::string type_name = (type & CL_DEVICE_TYPE_GPU) != 0           ? "GPU"
                                  : (type & CL_DEVICE_TYPE_CPU) != 0         ? "CPU"
                                  : (type & CL_DEVICE_TYPE_ACCELERATOR) != 0 ? "accelerator"
                                                                             : "other";
    return std::map<std::string, std::string>{
        {"api", "OpenCL"},
        {"platform_name", detail::clean(platform.getInfo<CL_PLATFORM_NAME>())},
        {"platform_version", detail::clean(platform.getInfo<CL_PLATFORM_VERSION>())},
        {"platform_vendor", detail::clean(platform.getInfo<CL_PLATFORM_VENDOR>())},
        {"name", detail::clean(device.getInfo<CL_DEVICE_NAME>())},
        {"device_type", type_name},
        {"device_version", detail::clean(device.getInfo<CL_DEVICE_VERSION>())},
        {"driver_version", detail::clean(device.getInfo<CL_DRIVER_VERSION>())},
        {"opencl_c_version", detail::clean(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>())},
        {"compute_units", std::to_string(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>())},
        {"max_clock_mhz", std::to_string(device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>())},
        {"global_memory_bytes", std::to_string(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>())},
    };
  });
}

} // namespace lifebench::opencl
