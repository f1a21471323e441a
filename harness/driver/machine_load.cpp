#include "machine_load.hpp"

#include "lifebench/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <unistd.h>
#include <vector>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// More would say no more than that the machine was busy.
constexpr std::size_t kMostProcesses = 16;

std::optional<double> load_average() {
  double load = 0;
  if (::getloadavg(&load, 1) != 1) return std::nullopt;
  return load;
}

nlohmann::json json_or_null(std::optional<double> value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

/// The first line of /proc/<pid>/<file>, or "".
std::string proc_text(pid_t pid, const char* file) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return text;
}

/// The lifebench processes (the driver, experiments, MPI ranks: their names start with
/// "lifebench") other than this one, described.
std::vector<std::string> other_lifebench_processes() {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10));
    if (pid == ::getpid() || !proc_text(pid, "comm").starts_with("lifebench")) continue;
    found.push_back(describe_process(pid));
    if (found.size() == kMostProcesses) break;
  }
  return found;
}

} // namespace

std::string describe_process(pid_t pid) {
  std::string command = proc_text(pid, "cmdline");
  while (!command.empty() && command.back() == '\0')
    command.pop_back();
  // The program's name without its folder, so that the arguments fit in the line.
  const auto name = command.rfind('/', command.find('\0'));
  if (name != std::string::npos) command.erase(0, name + 1);
  std::replace(command.begin(), command.end(), '\0', ' ');
  const std::string id = std::to_string(pid);
  return command.empty() ? id : id + ": " + quote(command, '\'');
}

nlohmann::json load_at_start() {
  return {{"load_average_start", json_or_null(load_average())},
          {"load_average_end", nullptr},
          {"other_processes", other_lifebench_processes()}};
}

void note_load_at_end(nlohmann::json& load) {
  load["load_average_end"] = json_or_null(load_average());
  for (auto& process : other_lifebench_processes()) {
    auto& others = load["other_processes"];
    if (others.size() < kMostProcesses &&
        std::find(others.begin(), others.end(), process) == others.end()) {
      others.push_back(std::move(process));
    }
  }
}

} // namespace lifebench::driver
