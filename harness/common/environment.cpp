#include "lifebench/environment.hpp"

#include "lifebench/build_info.hpp"
#include "lifebench/grid.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace lifebench {
namespace {

/// Standard output of a shell command, trailing newline removed; empty on failure.
std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return {};
  std::string out;
  std::array<char, 256> buffer{};
  while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) {
    out += buffer.data();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
    out.pop_back();
  return out;
}

std::string file_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// "Linux 6.1.0-18-amd64 x86_64".
std::string kernel() {
  utsname uts{};
  if (uname(&uts) != 0) return "unknown";
  return std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
}

/// The distribution's name (/etc/os-release's PRETTY_NAME) and the kernel.
std::string operating_system() {
  std::istringstream release(file_text("/etc/os-release"));
  for (std::string line; std::getline(release, line);) {
    if (!line.starts_with("PRETTY_NAME=")) continue;
    std::string name = line.substr(line.find('=') + 1);
    std::erase(name, '"');
    return name + ", " + kernel();
  }
  return kernel();
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// "key : value" of a /proc/cpuinfo line, trimmed; an empty key for a line of another form.
std::pair<std::string_view, std::string_view> cpuinfo_field(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return {};
  return {trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

/// Lower-case letters and digits, every other run of characters one '-', none at either end.
std::string slug(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  if (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

/// "h100-80gb-hbm3" of "NVIDIA H100 80GB HBM3".
std::string gpu_slug(const std::string& name) {
  std::string s = slug(name);
  if (s.starts_with("nvidia-")) s.erase(0, std::string_view("nvidia-").size());
  return s.empty() ? "gpu" : s;
}

/// The CPU's family: the first word of its model that is not a vendor's, a trademark's, filler
/// or a number ("xeon" of "Intel(R) Xeon(R) Processor", "epyc" of "AMD EPYC 7763 64-Core
/// Processor", "core" of "12th Gen Intel(R) Core(TM) i7-12700K"); "cpu" where none is.
std::string cpu_slug(const std::string& model) {
  static const std::set<std::string, std::less<>> skipped = {
      "r", "tm", "intel", "amd", "arm", "apple", "gen", "cpu", "processor", "genuine", "unknown"};
  std::istringstream words(slug(model));
  for (std::string word; std::getline(words, word, '-');) {
    if (std::isdigit(static_cast<unsigned char>(word.front())) == 0 && !skipped.contains(word)) {
      return word;
    }
  }
  return "cpu";
}

} // namespace

CpuFacts parse_cpuinfo(std::string_view text) {
  CpuFacts cpu;
  std::set<std::pair<std::string, std::string>> cores; // (physical id, core id)
  std::string physical_id;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    const auto [key, value] = cpuinfo_field(line);
    if (key == "processor") {
      ++cpu.logical_cores;
      physical_id.clear();
    } else if (key == "model name" && cpu.model == "unknown" && !value.empty()) {
      cpu.model = value;
    } else if (key == "physical id") {
      physical_id = value;
    } else if (key == "core id") {
      cores.emplace(physical_id, value);
    }
  }
  cpu.physical_cores = cores.empty() ? cpu.logical_cores : static_cast<int>(cores.size());
  return cpu;
}

std::vector<GpuFacts> parse_nvidia_smi(std::string_view csv) {
  std::vector<GpuFacts> gpus;
  std::istringstream lines{std::string(csv)};
  for (std::string line; std::getline(lines, line);) {
    // The name may hold no comma; the memory and the driver are the last two fields.
    const auto second = line.rfind(',');
    const auto first = second == std::string::npos ? second : line.rfind(',', second - 1);
    if (first == std::string::npos) continue;
    const std::string_view name = trim(std::string_view(line).substr(0, first));
    const std::string_view mib = trim(std::string_view(line).substr(first + 1, second - first - 1));
    const std::string_view driver = trim(std::string_view(line).substr(second + 1));
    std::uint64_t memory_mib = 0;
    const auto [end, error] = std::from_chars(mib.data(), mib.data() + mib.size(), memory_mib);
    if (name.empty() || driver.empty() || error != std::errc{} || end != mib.data() + mib.size()) {
      continue;
    }
    gpus.push_back({std::string(name), memory_mib << 20U, std::string(driver)});
  }
  return gpus;
}

std::string derive_machine_name(const CpuFacts& cpu, const std::vector<GpuFacts>& gpus) {
  std::vector<std::pair<std::string, int>> models; // GPU model, count; in first-seen order
  for (const auto& gpu : gpus) {
    const std::string model = gpu_slug(gpu.name);
    const auto seen = std::ranges::find(models, model, &std::pair<std::string, int>::first);
    if (seen == models.end()) {
      models.emplace_back(model, 1);
    } else {
      ++seen->second;
    }
  }
  std::string name;
  for (const auto& [model, count] : models) {
    if (count > 1) name += std::to_string(count) + "x-";
    name += model + "-";
  }
  name += cpu_slug(cpu.model);
  if (cpu.physical_cores > 0) name += "-" + std::to_string(cpu.physical_cores) + "c";
  return name;
}

bool valid_machine_name(std::string_view name) {
  const auto allowed = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
  };
  return !name.empty() && name.size() <= kMaxMachineName &&
         std::isalnum(static_cast<unsigned char>(name.front())) != 0 &&
         std::ranges::all_of(name, allowed);
}

nlohmann::json machine_environment(const std::optional<std::string>& given) {
  const CpuFacts cpu = parse_cpuinfo(file_text("/proc/cpuinfo"));
  // nvidia-smi comes with the driver: no CUDA in the driver for this, and none where it is
  // missing (the shell's complaint goes to /dev/null).
  const std::vector<GpuFacts> gpus = parse_nvidia_smi(command_output(
      "nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader,nounits "
      "2>/dev/null"));
  nlohmann::json gpus_json = nlohmann::json::array();
  for (const auto& gpu : gpus) {
    gpus_json.push_back(
        {{"name", gpu.name}, {"memory_bytes", gpu.memory_bytes}, {"driver", gpu.driver}});
  }
  return {{"name", given.value_or(derive_machine_name(cpu, gpus))},
          {"name_source", given ? "given" : "derived"},
          {"cpu", cpu.model},
          {"physical_cores", cpu.physical_cores},
          {"logical_cores", cpu.logical_cores},
          {"memory_bytes", host_memory_bytes()},
          {"gpus", gpus_json},
          {"os", operating_system()},
          {"compilers", {{"cxx", build_info::cxx_compiler}, {"cuda", build_info::cuda_compiler}}}};
}

nlohmann::json build_environment() {
  return {{"version", build_info::version},
          {"build_type", build_info::build_type},
          {"preset", build_info::preset},
          {"cxx_compiler", build_info::cxx_compiler},
          {"cxx_flags", build_info::cxx_flags},
          {"cuda_compiler", build_info::cuda_compiler},
          {"cuda_architectures", build_info::cuda_architectures},
          {"highway", build_info::highway}};
}

nlohmann::json host_environment() {
  std::array<char, 256> hostname{};
  gethostname(hostname.data(), hostname.size() - 1);
  return {{"cpu", parse_cpuinfo(file_text("/proc/cpuinfo")).model},
          {"logical_cores", std::thread::hardware_concurrency()},
          {"hwy_targets", simd_targets()},
          {"hostname", hostname.data()},
          {"os", kernel()}};
}

} // namespace lifebench
