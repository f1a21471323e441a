// lifebench list
#include "catalog_json.hpp"
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/error.hpp"
#include "lifebench/json_text.hpp"
#include "process.hpp"
#include "sweep.hpp"
#include "text.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace lifebench::driver {
namespace {

struct Row {
  std::string name, family, backend, availability;
};

/// Whether `name` is an original program run as an experiment: tied beside its
/// reproduction on purpose, so sharing a cell with it is no copy.
bool external(const std::string& name) {
  return name.rfind("external-", 0) == 0;
}

/// One warning line per experiment whose own sweep ties a published cell that an
/// earlier experiment's sweep ties too: the mark of a folder copied with its sweep.toml
/// (README, "Adding an experiment"). A sweep file that does not read is left to bench.
void warn_shared_ties(const Catalog& catalog) {
  std::map<std::string, std::string> owner; // "table / row / column" -> first experiment
  for (const auto& e : catalog.experiments) {
    std::error_code error;
    if (external(e.name) || !std::filesystem::exists(e.sweep_file(), error)) continue;
    std::vector<SweepRun> runs;
    try {
      runs = read_sweep_file(e.sweep_file(), catalog, &e);
    } catch (const Error&) {
      continue;
    }
    std::set<std::string> others;
    std::string example;
    for (const auto& run : runs) {
      for (const auto& tie : run.ties) {
        const std::string cell = tie.table + " / " + tie.row + " / " + tie.column;
        const auto [it, first] = owner.emplace(cell, e.name);
        if (!first && it->second != e.name && others.insert(it->second).second && example.empty())
          example = cell;
      }
    }
    if (!others.empty()) {
      std::cerr << "lifebench: warning: " << e.name << "'s sweep ties cells already tied by "
                << join(std::vector<std::string>(others.begin(), others.end()), ", ", "") << " ("
                << example
                << "): a folder copied with its sweep.toml keeps the original's ties; delete "
                   "them from the copy\n";
    }
  }
}

/// "available", "unavailable: <reason>", or for a program lifebench does not build
/// "available: external program /usr/bin/bgolly 3.3".
std::string availability(const Experiment& e) {
  if (!e.available) return "unavailable: " + e.reason;
  const auto program = e.external.find("program");
  if (program == e.external.end()) return "available";
  const auto version = e.external.find("version");
  return "available: external program " + program->second +
         (version == e.external.end() || version->second.empty() ? "" : " " + version->second);
}

} // namespace

int list_command(const GlobalOptions& global, bool json) {
  const auto folders = experiment_folders(global.experiment_folders);
  const Catalog catalog = discover(folders);
  if (interrupt_signal() != 0) return kExitInterrupted;
  std::vector<Row> rows;
  for (const auto& e : catalog.experiments) {
    rows.push_back({e.name, e.family, e.backend, availability(e)});
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
  if (json) {
    std::cout << json_text(catalog_json(catalog));
    return 0;
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
  warn_shared_ties(catalog);
  return 0;
}

} // namespace lifebench::driver
