#include "lifebench/environment.hpp"

#include "lifebench/build_info.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

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

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

} // namespace

nlohmann::json build_environment() {
  const std::string git = std::string("git -C '") + build_info::source_dir + "' ";
  const std::string commit = command_output(git + "rev-parse --verify --quiet HEAD 2>/dev/null");
  nlohmann::json dirty = nullptr; // unknown outside a git checkout
  if (!commit.empty()) dirty = !command_output(git + "status --porcelain 2>/dev/null").empty();
  return {{"version", build_info::version},
          {"build_type", build_info::build_type},
          {"preset", build_info::preset},
          {"cxx_compiler", build_info::cxx_compiler},
          {"cxx_flags", build_info::cxx_flags},
          {"cuda_compiler", build_info::cuda_compiler},
          {"cuda_architectures", build_info::cuda_architectures},
          {"highway", build_info::highway},
          {"git_commit", commit.empty() ? nlohmann::json(nullptr) : nlohmann::json(commit)},
          {"git_dirty", dirty}};
}

nlohmann::json host_environment() {
  utsname uts{};
  std::string os = "unknown";
  if (uname(&uts) == 0) os = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
  std::array<char, 256> hostname{};
  gethostname(hostname.data(), hostname.size() - 1);
  return {{"cpu", cpu_model()},
          {"logical_cores", std::thread::hardware_concurrency()},
          {"hwy_targets", simd_targets()},
          {"hostname", hostname.data()},
          {"os", os}};
}

} // namespace lifebench
