// Seed 001, "Extra notes: Programmatic dependent launch": v2 (cuda3d-swar's kernel, from
// kernels/cuda/cube3d.cuh) launched with cudaLaunchKernelEx and programmatic stream
// serialisation, so that a generation's blocks may be scheduled and do their index
// arithmetic while the previous generation's last blocks run; the kernel's
// cudaGridDependencySynchronize() waits for the previous generation before any load.
#include "cuda/cube3d.cuh"
#include "cuda/cube_simulator.cuh"

#include <memory>

namespace lifebench {
namespace {

std::optional<std::string> unavailable() {
  if (auto reason = cuda::unavailable_reason(cube::swar_kernel<4, true, true>())) return reason;
  int major = 0;
  int minor = 0;
  LIFEBENCH_CUDA_CALL(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  LIFEBENCH_CUDA_CALL(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  if (major < 9) {
    return "programmatic dependent launch needs compute capability 9.0 or later; device 0 has " +
           std::to_string(major) + "." + std::to_string(minor);
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda3d-pdl", "3d", "cuda",
              "seed 001, Extra notes: Programmatic dependent launch (applied to v2)",
              "v2 (four cells per uint32, byte-wise sums) with programmatic dependent launch "
              "between generations"},
    .axes = {lifebench::cube::swar_z_width_axis()},
    .unavailable = lifebench::unavailable,
    .unsupported = lifebench::cube::swar_unsupported,
    // Many chained launches, so that overlapping ones are checked.
    .verify_generations = [](const lifebench::Params&) -> std::uint64_t { return 9; },
    .make = lifebench::make_simulator<lifebench::cube::SwarSimulator<true>>})
