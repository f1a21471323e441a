// The device's own ceilings, measured in the process that measures a kernel, so
// that a result states its fraction of them from the same machine and moment:
// device-to-device copy bandwidth (bytes read + written per second) and the
// issue rate of 32-bit LOP3 instructions.
#pragma once

#include "cuda/error.cuh"
#include "cuda/lop3.cuh"
#include "cuda/runtime.cuh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

namespace lifebench::cuda {
namespace detail {

inline constexpr int lop3_chains = 8;  // independent dependency chains per thread
inline constexpr int lop3_unroll = 32; // chain steps per loop iteration
inline constexpr int lop3_block = 256;

/// lop3_chains x lop3_unroll LOP3 instructions per iteration and thread; the sum is
/// stored only when it equals `never`, so nothing can be optimised away.
__global__ void __launch_bounds__(lop3_block)
    lop3_ceiling_kernel(std::uint32_t iterations, std::uint32_t never, std::uint32_t* sink) {
  std::uint32_t r[lop3_chains];
#pragma unroll
  for (int i = 0; i < lop3_chains; ++i)
    r[i] = threadIdx.x * (i + 3) + blockIdx.x;
  for (std::uint32_t it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < lop3_unroll; ++u) {
#pragma unroll
      for (int i = 0; i < lop3_chains; ++i) {
        r[i] = lop3<0x96>(r[i], r[(i + 1) % lop3_chains], r[(i + 2) % lop3_chains]);
      }
    }
  }
  std::uint32_t sum = 0;
#pragma unroll
  for (int i = 0; i < lop3_chains; ++i)
    sum += r[i];
  if (sum == never) *sink = sum;
}

} // namespace detail

/// Best of several device-to-device copies of `bytes`: read plus written bytes per second.
inline double measure_copy_bandwidth(std::size_t bytes = std::size_t{1} << 30) {
  std::size_t free = 0;
  std::size_t total = 0;
  LIFEBENCH_CUDA_CALL(cudaMemGetInfo(&free, &total));
  bytes = std::min(bytes, free / 4);
  DeviceBuffer<std::uint8_t> from(bytes);
  DeviceBuffer<std::uint8_t> to(bytes);
  LIFEBENCH_CUDA_CALL(cudaMemset(from.data(), 1, bytes));
  Stream stream;
  EventTimer timer;
  double best = 0;
  for (int repetition = 0; repetition < 6; ++repetition) {
    timer.start(stream.get());
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    timer.stop(stream.get());
    const double seconds = timer.seconds();
    if (repetition > 0 && seconds > 0)
      best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds);
  }
  return best;
}

/// Best of several runs of a kernel that does nothing but independent LOP3s on every
/// SM at full occupancy: 32-bit LOP3 instructions (per thread) per second.
inline double measure_lop3_rate() {
  int device = 0;
  LIFEBENCH_CUDA_CALL(cudaGetDevice(&device));
  const int sms = detail::attribute(cudaDevAttrMultiProcessorCount, device);
  const int threads_per_sm = detail::attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
  const int blocks = sms * (threads_per_sm / detail::lop3_block);
  constexpr std::uint32_t iterations = 2048;
  DeviceBuffer<std::uint32_t> sink(1);
  Stream stream;
  EventTimer timer;
  double best = 0;
  for (int repetition = 0; repetition < 4; ++repetition) {
    timer.start(stream.get());
    detail::lop3_ceiling_kernel<<<blocks, detail::lop3_block, 0, stream.get()>>>(iterations, 1U,
                                                                                 sink.data());
    LIFEBENCH_CUDA_CHECK_LAUNCH();
    timer.stop(stream.get());
    const double seconds = timer.seconds();
    const double instructions = static_cast<double>(blocks) * detail::lop3_block * iterations *
                                detail::lop3_unroll * detail::lop3_chains;
    if (repetition > 0 && seconds > 0) best = std::max(best, instructions / seconds);
  }
  return best;
}

/// The two ceilings as device() entries, measured once per process.
inline std::map<std::string, std::string> measured_ceilings() {
  static const std::map<std::string, std::string> ceilings{
      {"copy_bandwidth_measured_gb_per_s", std::to_string(measure_copy_bandwidth() * 1e-9)},
      {"lop3_per_s_measured", std::to_string(measure_lop3_rate())},
  };
  return ceilings;
}

/// device_info() with the measured ceilings: what experiments whose tables give a
/// fraction of peak report as their device.
inline std::map<std::string, std::string> device_info_with_ceilings() {
  auto info = device_info();
  info.merge(measured_ceilings());
  return info;
}

} // namespace lifebench::cuda
