// lifebench list
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/error.hpp"
#include "process.hpp"
#include "text.hpp"

#include <algorithm>
#include <iostream>

namespace lifebench::driver {
namespace {

struct Row {
  std::string name, family, backend, availability;
};

} // namespace

int list_command(const GlobalOptions& global) {
  const auto folders = experiment_folders(global.experiment_folders);
  const Catalog catalog = discover(folders);
  if (interrupt_signal() != 0) return kExitInterrupted;
  std::vector<Row> rows;
  for (const auto& e : catalog.experiments) {
    rows.push_back(
        {e.name, e.family, e.backend, e.available ? "available" : "unavailable: " + e.reason});
  }
  for (const auto& e : catalog.broken)
    rows.push_back({e.name, "-", "-", "broken: " + e.reason});
  if (rows.empty()) {
    std::vector<std::string> searched;
    searched.reserve(folders.size());
    for (const auto& folder : folders)
      searched.push_back(folder.string());
    throw Error(
        "no experiment executables (lifebench-exp-*) found in " +
        join(searched, ", ", "no folder") +
        "; build them, or name their folder with --experiments or LIFEBENCH_EXPERIMENTS_PATH");
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.name < b.name; });
  Row widths{"NAME", "FAMILY", "BACKEND", ""};
  for (const auto& row : rows) {
    widths.name.resize(std::max(widths.name.size(), row.name.size()), ' ');
    widths.family.resize(std::max(widths.family.size(), row.family.size()), ' ');
    widths.backend.resize(std::max(widths.backend.size(), row.backend.size()), ' ');
  }
  const auto print = [&](const Row& row) {
    std::cout << row.name << std::string(widths.name.size() - row.name.size() + 2, ' ')
              << row.family << std::string(widths.family.size() - row.family.size() + 2, ' ')
              << row.backend << std::string(widths.backend.size() - row.backend.size() + 2, ' ')
              << row.availability << "\n";
  };
  print({"NAME", "FAMILY", "BACKEND", "AVAILABILITY"});
  for (const auto& row : rows)
    print(row);
  return 0;
}

} // namespace lifebench::driver
