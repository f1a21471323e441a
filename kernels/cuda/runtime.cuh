// Small RAII pieces of the CUDA runtime that every CUDA experiment needs: device and
// pinned host buffers, a stream, an event timer, the reason CUDA cannot run here or a
// problem does not fit, and the device description that goes into the results.
#pragma once

#include "cuda/error.cuh"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace lifebench::cuda {

/// Where a Buffer's memory lives: the device's global memory.
struct DeviceMemory {
  static void allocate(void** data, std::size_t bytes) {
    LIFEBENCH_CUDA_CALL(cudaMalloc(data, bytes));
  }
  static void release(void* data) noexcept { LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaFree(data)); }
};

/// Page-locked host memory: copies to and from the device run at full speed and
/// asynchronously to the host.
struct PinnedMemory {
  static void allocate(void** data, std::size_t bytes) {
    LIFEBENCH_CUDA_CALL(cudaMallocHost(data, bytes));
  }
  static void release(void* data) noexcept { LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaFreeHost(data)); }
};

/// An owned allocation of `count` elements of T (uninitialised) in `Memory`.
template <class T, class Memory> class Buffer {
public:
  Buffer() = default;
  explicit Buffer(std::size_t count) : count_(count) {
    if (count_ != 0) Memory::allocate(reinterpret_cast<void**>(&data_), bytes());
  }
  Buffer(Buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  [[nodiscard]] T* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::size_t bytes() const { return count_ * sizeof(T); }

private:
  void release() noexcept {
    if (data_ != nullptr) Memory::release(data_);
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

template <class T> using DeviceBuffer = Buffer<T, DeviceMemory>;
template <class T> using PinnedBuffer = Buffer<T, PinnedMemory>;

/// An owned non-blocking stream: work on it does not serialise with the legacy default stream.
class Stream {
public:
  Stream() { LIFEBENCH_CUDA_CALL(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaStreamDestroy(stream_)); }

  [[nodiscard]] cudaStream_t get() const { return stream_; }
  void synchronize() const { LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream_)); }

private:
  cudaStream_t stream_{};
};

/// An owned event without timing, to order work on one stream after work on another, or to
/// wait on the host for what a stream has done so far.
class Event {
public:
  Event() { LIFEBENCH_CUDA_CALL(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaEventDestroy(event_)); }

  /// Marks what `stream` has been given so far.
  void record(cudaStream_t stream) { LIFEBENCH_CUDA_CALL(cudaEventRecord(event_, stream)); }
  /// Work given to `stream` from now on waits for what the last record() marked.
  void wait_on(cudaStream_t stream) const {
    LIFEBENCH_CUDA_CALL(cudaStreamWaitEvent(stream, event_, 0));
  }
  void synchronize() const { LIFEBENCH_CUDA_CALL(cudaEventSynchronize(event_)); }

private:
  cudaEvent_t event_{};
};

/// Device time between two events recorded on one stream.
class EventTimer {
public:
  EventTimer() {
    LIFEBENCH_CUDA_CALL(cudaEventCreate(&start_));
    try {
      LIFEBENCH_CUDA_CALL(cudaEventCreate(&stop_));
    } catch (...) {
      LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaEventDestroy(start_));
      throw;
    }
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaEventDestroy(start_));
    LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaEventDestroy(stop_));
  }

  void start(cudaStream_t stream) { LIFEBENCH_CUDA_CALL(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream) { LIFEBENCH_CUDA_CALL(cudaEventRecord(stop_, stream)); }
  /// Waits for the stop event; seconds between start and stop (resolution about 0.5 us).
  [[nodiscard]] double seconds() const {
    LIFEBENCH_CUDA_CALL(cudaEventSynchronize(stop_));
    float milliseconds = 0;
    LIFEBENCH_CUDA_CALL(cudaEventElapsedTime(&milliseconds, start_, stop_));
    return static_cast<double>(milliseconds) * 1e-3;
  }

private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

namespace detail {

/// 13000 -> "13.0" (the encoding of cudaDriverGetVersion and cudaRuntimeGetVersion).
inline std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

/// The NVIDIA kernel module's release ("580.65.06") on Linux, else "unknown": the CUDA
/// runtime only tells the CUDA version the driver supports.
inline std::string driver_release() {
  // "NVRM version: NVIDIA UNIX [Open] Kernel Module [for x86_64]  580.65.06  Release Build ..."
  std::ifstream file("/proc/driver/nvidia/version");
  std::string word;
  bool after_module = false;
  while (file >> word) {
    if (word == "Module") after_module = true;
    if (after_module && word.find('.') != std::string::npos && word[0] >= '0' && word[0] <= '9') {
      return word;
    }
  }
  return "unknown";
}

inline int attribute(cudaDeviceAttr what, int device) {
  int value = 0;
  LIFEBENCH_CUDA_CALL(cudaDeviceGetAttribute(&value, what, device));
  return value;
}

} // namespace detail

/// The current device's streaming multiprocessors.
inline int sm_count() {
  int device = 0;
  LIFEBENCH_CUDA_CALL(cudaGetDevice(&device));
  return detail::attribute(cudaDevAttrMultiProcessorCount, device);
}

/// Why CUDA cannot run here (no driver, driver older than the runtime, no device),
/// as one line; nothing when device 0 (after CUDA_VISIBLE_DEVICES) is usable.
inline std::optional<std::string> unavailable_reason() {
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  (void)cudaGetLastError(); // a failed query must not linger as the "last error"
  if (status == cudaSuccess && count > 0) return std::nullopt;
  if (status == cudaSuccess || status == cudaErrorNoDevice) return "no CUDA device found";
  if (status == cudaErrorInsufficientDriver) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    if (driver == 0)
      return "no CUDA driver installed (this build needs one for CUDA " +
             detail::version_text(runtime) + ")";
    return "the CUDA driver supports CUDA " + detail::version_text(driver) +
           ", older than this build's runtime, CUDA " + detail::version_text(runtime);
  }
  return std::string("CUDA cannot start: ") + cudaGetErrorName(status) + ": " +
         cudaGetErrorString(status);
}

/// As unavailable_reason(), and also when this binary holds no code that device 0
/// can run (built for other CUDA architectures). Pass one of the experiment's kernels.
template <class Kernel> std::optional<std::string> unavailable_reason(Kernel* kernel) {
  if (auto reason = unavailable_reason()) return reason;
  cudaFuncAttributes attributes{};
  const cudaError_t status =
      cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel));
  (void)cudaGetLastError();
  if (status == cudaSuccess) return std::nullopt;
  int major = 0;
  int minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  return "this binary has no code for the device's compute capability " + std::to_string(major) +
         "." + std::to_string(minor) + " (rebuild with CMAKE_CUDA_ARCHITECTURES including " +
         std::to_string(major) + std::to_string(minor) + "): " + cudaGetErrorName(status);
}

/// unavailable_reason(Kernel) as an ExperimentInfo::unavailable:
/// `.unavailable = cuda::unavailable_for<&step<true>>`.
template <auto Kernel> std::optional<std::string> unavailable_for() {
  return unavailable_reason(Kernel);
}

/// Why `bytes` of device buffers (`what` they are, for the message) do not fit in the
/// current device's free memory, or nothing; nothing too where the device cannot say
/// (the allocation then reports it). For an experiment's `unsupported`.
inline std::optional<std::string> beyond_free_memory(std::size_t bytes, const std::string& what) {
  std::size_t free = 0;
  std::size_t total = 0;
  const cudaError_t status = cudaMemGetInfo(&free, &total);
  (void)cudaGetLastError();
  if (status != cudaSuccess || bytes <= free) return std::nullopt;
  return what + " take " + std::to_string(bytes) + " bytes of device memory; " +
         std::to_string(free) + " of " + std::to_string(total) + " are free";
}

/// The current device, for Simulator::device(): name, compute capability, SM count,
/// peak SM and memory clocks, memory bus width, the peak bandwidth they imply, the
/// driver's release and the CUDA versions of the driver and the runtime.
inline std::map<std::string, std::string> device_info() {
  int device = 0;
  LIFEBENCH_CUDA_CALL(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  LIFEBENCH_CUDA_CALL(cudaGetDeviceProperties(&properties, device));
  int driver = 0;
  int runtime = 0;
  LIFEBENCH_CUDA_CALL(cudaDriverGetVersion(&driver));
  LIFEBENCH_CUDA_CALL(cudaRuntimeGetVersion(&runtime));
  // CUDA 13 dropped the clock fields of cudaDeviceProp; the attributes remain (kHz).
  const int sm_khz = detail::attribute(cudaDevAttrClockRate, device);
  const int memory_khz = detail::attribute(cudaDevAttrMemoryClockRate, device);
  const int bus_bits = detail::attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  // Double data rate: two transfers per memory clock over the whole bus.
  const auto peak_gb_per_s =
      static_cast<long long>(2.0 * memory_khz * 1e3 * (bus_bits / 8.0) * 1e-9 + 0.5);
  char pci[32] = {};
  LIFEBENCH_CUDA_CALL(cudaDeviceGetPCIBusId(pci, sizeof pci, device));
  return {
      {"api", "CUDA"},
      {"name", properties.name},
      {"compute_capability",
       std::to_string(properties.major) + "." + std::to_string(properties.minor)},
      {"sm_count", std::to_string(properties.multiProcessorCount)},
      {"sm_clock_max_mhz", std::to_string(sm_khz / 1000)},
      {"memory_clock_max_mhz", std::to_string(memory_khz / 1000)},
      {"memory_bus_width_bits", std::to_string(bus_bits)},
      {"memory_bandwidth_peak_gb_per_s", std::to_string(peak_gb_per_s)},
      {"global_memory_bytes", std::to_string(properties.totalGlobalMem)},
      {"pci_bus_id", pci},
      {"driver_release", detail::driver_release()},
      {"cuda_driver_version", detail::version_text(driver)},
      {"cuda_runtime_version", detail::version_text(runtime)},
  };
}

} // namespace lifebench::cuda
