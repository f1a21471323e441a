// Provenance of a measurement: the build (from configure time), the host it runs on and the
// machine, named, that a results folder is measured on.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifebench {

/// Build type, preset, compilers, flags, CUDA architectures, Highway version (the source tree's
/// hash and commit are the driver's: harness/driver/source_info.hpp).
nlohmann::json build_environment();

/// CPU model, logical cores, Highway's targets on this CPU, host name, operating system.
nlohmann::json host_environment();

/// Highway targets compiled in and supported by this CPU, best first; empty without Highway.
std::vector<std::string> simd_targets();

/// The CPU as /proc/cpuinfo describes it.
struct CpuFacts {
  std::string model = "unknown"; ///< the first "model name"
  int logical_cores = 0;         ///< "processor" entries
  int physical_cores = 0;        ///< distinct ("physical id", "core id") pairs, else logical
};

/// Reads /proc/cpuinfo's text.
CpuFacts parse_cpuinfo(std::string_view text);

/// One GPU as nvidia-smi reports it.
struct GpuFacts {
  std::string name;
  std::uint64_t memory_bytes = 0;
  std::string driver;
};

/// The GPUs of `nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader,
/// nounits` (memory in MiB), one a line; a line not of that form is skipped.
std::vector<GpuFacts> parse_nvidia_smi(std::string_view csv);

/// A machine's name from its hardware: "[<n>x-]<GPU model>-<CPU family>-<physical cores>c",
/// e.g. "h100-80gb-hbm3-xeon-16c" and "4x-h100-80gb-hbm3-xeon-64c", or "xeon-2c" without a
/// GPU; GPUs of several models each give a part, in the order of `gpus`. Lower-case letters,
/// digits and '-': the GPU's name without "NVIDIA", the CPU's first word that is neither a
/// vendor's nor a number ("Intel(R) Xeon(R) Platinum 8480+" gives "xeon").
std::string derive_machine_name(const CpuFacts& cpu, const std::vector<GpuFacts>& gpus);

/// The longest machine name --machine takes.
inline constexpr std::size_t kMaxMachineName = 64;

/// Whether `name` may name a machine: 1 to kMaxMachineName letters, digits, '-', '_' and '.',
/// the first a letter or digit (names become folder names: no "..", no hidden folders).
bool valid_machine_name(std::string_view name);

/// The manifest's "machine": its name (`given`, else derive_machine_name()) and where it came
/// from, CPU model, physical and logical cores, memory, each GPU (nvidia-smi, where there is
/// one) with its memory and driver, operating system and the build's compilers.
nlohmann::json machine_environment(const std::optional<std::string>& given);

} // namespace lifebench
