#include "opencl/opencl.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace lifebench::opencl {

std::string error_name(cl_int code) {
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

std::string describe(const cl::Error& error) {
  return std::string(error.what()) + " failed: " + error_name(error.err()) + " (" +
         std::to_string(error.err()) + ")";
}

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// Whether `name` contains `wanted`, ignoring case; an empty `wanted` matches everything.
bool matches(const std::string& name, const std::string& wanted) {
  return lower(name).find(lower(wanted)) != std::string::npos;
}

std::string environment(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

/// Devices of a platform; none (rather than CL_DEVICE_NOT_FOUND) when it has none.
std::vector<cl::Device> devices_of(const cl::Platform& platform) {
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
std::string clean(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' '))
    text.pop_back();
  return text;
}

/// The names asked for: the selection's, else the environment's.
Selection wanted(const Selection& selection) {
  return {selection.platform.empty() ? environment("LIFEBENCH_OPENCL_PLATFORM")
                                     : selection.platform,
          selection.device.empty() ? environment("LIFEBENCH_OPENCL_DEVICE") : selection.device};
}

struct Choice {
  std::optional<std::pair<cl::Platform, cl::Device>> chosen;
  std::string reason; ///< why nothing was chosen
};

Choice choose(const Selection& selection) {
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
std::string one_line(const std::string& text) {
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

} // namespace

std::optional<std::string> unavailable_reason() {
  try {
    auto choice = choose(Selection{});
    if (choice.chosen) return std::nullopt;
    // Named devices that do not exist are the selection's fault (selection_problem()),
    // not the machine's: look again for any device at all.
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    for (const auto& platform : platforms) {
      if (!devices_of(platform).empty()) return std::nullopt;
    }
    return choice.reason;
  } catch (const cl::Error& error) {
    return "OpenCL is unusable: " + describe(error);
  }
}

std::optional<std::string> selection_problem(const Selection& selection) {
  try {
    auto choice = choose(selection);
    if (choice.chosen) return std::nullopt;
    return choice.reason;
  } catch (const cl::Error& error) {
    return "OpenCL is unusable: " + describe(error);
  }
}

Runtime& Runtime::get(const Selection& selection) {
  // Deliberately never destroyed: OpenCL objects released from static destructors,
  // after the ICD or the driver may have begun its own teardown, crash some platforms.
  static auto* runtimes =
      new std::map<std::pair<std::string, std::string>, std::unique_ptr<Runtime>>();
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  const Selection want = wanted(selection);
  auto& runtime = (*runtimes)[{want.platform, want.device}];
  if (!runtime) runtime.reset(new Runtime(selection));
  return *runtime;
}

cl::CommandQueue Runtime::profiling_queue() const {
  return call("creating an OpenCL queue",
              [&] { return cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE); });
}

cl::Program Runtime::program(const std::string& name, const std::string& source,
                             const std::string& options) {
  const std::lock_guard lock(mutex_);
  const auto key = std::make_pair(source, options);
  if (const auto found = programs_.find(key); found != programs_.end()) return found->second;
  cl::Program built = build(name, source, options);
  programs_.emplace(key, built);
  return built;
}

Runtime::Runtime(const Selection& selection) {
  auto choice = call("choosing an OpenCL device", [&] { return choose(selection); });
  if (!choice.chosen) throw Error(choice.reason);
  platform_ = choice.chosen->first;
  device_ = choice.chosen->second;
  context_ = call("creating an OpenCL context", [&] { return cl::Context(device_); });
}

cl::Program Runtime::build(const std::string& name, const std::string& source,
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
    log = clean(log);
    std::cerr << "lifebench: OpenCL build log of " << name << " (options: " << options << "):\n"
              << (log.empty() ? "(empty)" : log) << "\n";
    throw Error("building OpenCL program " + name + " failed: " + describe(error) +
                "; build log: " + (log.empty() ? "(empty)" : one_line(log)));
  }
  return program;
}

double elapsed_seconds(const cl::Event& first, const cl::Event& last) {
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

std::map<std::string, std::string> device_info(const Runtime& runtime) {
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
        {"platform_name", clean(platform.getInfo<CL_PLATFORM_NAME>())},
        {"platform_version", clean(platform.getInfo<CL_PLATFORM_VERSION>())},
        {"platform_vendor", clean(platform.getInfo<CL_PLATFORM_VENDOR>())},
        {"name", clean(device.getInfo<CL_DEVICE_NAME>())},
        {"device_type", type_name},
        {"device_version", clean(device.getInfo<CL_DEVICE_VERSION>())},
        {"driver_version", clean(device.getInfo<CL_DRIVER_VERSION>())},
        {"opencl_c_version", clean(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>())},
        {"compute_units", std::to_string(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>())},
        {"max_clock_mhz", std::to_string(device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>())},
        {"global_memory_bytes", std::to_string(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>())},
    };
  });
}

} // namespace lifebench::opencl
