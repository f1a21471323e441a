// Finding the experiment executables and asking each to describe itself.
#pragma once

#include "lifebench/experiment.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifebench::driver {

/// An experiment executable that described itself.
struct Experiment {
  std::string name;
  std::filesystem::path binary;
  std::string family; ///< square | hex | 3d
  std::string backend;
  std::string source;
  std::string technique;
  std::vector<Axis> axes;
  bool available = true;
  std::string reason; ///< why it is unavailable
  /// A program lifebench runs but does not build: "description", "program", "version".
  std::map<std::string, std::string> external;

  /// Its own sweep file, `<name>.sweep.toml` beside the binary (it may not exist).
  [[nodiscard]] std::filesystem::path sweep_file() const;
  /// What the results manifest records of it.
  [[nodiscard]] nlohmann::json summary() const;
  /// The files whose bytes decide its measurements: the executable, and an external
  /// experiment's description and program.
  [[nodiscard]] std::vector<std::filesystem::path> measured_files() const;
};

/// An executable that looked like an experiment but did not describe itself.
struct BrokenExperiment {
  std::string name; ///< from its file name
  std::filesystem::path binary;
  std::string reason;
};

/// Every experiment found, by name.
struct Catalog {
  std::vector<std::string> names;       ///< every executable found, wanted or not, sorted
  std::vector<Experiment> experiments;  ///< sorted by name
  std::vector<BrokenExperiment> broken; ///< sorted by name

  [[nodiscard]] const Experiment* find(const std::string& name) const;
  [[nodiscard]] const BrokenExperiment* find_broken(const std::string& name) const;
  /// Prints one warning line per broken experiment to standard error.
  void warn_broken() const;
};

/// The folders to search: `given` (--experiments; each must exist), then the
/// entries of LIFEBENCH_EXPERIMENTS_PATH, then `experiments/` beside this program.
std::vector<std::filesystem::path> experiment_folders(const std::vector<std::string>& given);

/// Finds the `lifebench-exp-<name>` executables in `folders` (a name found twice:
/// the first folder wins and the other is reported) and describes those whose name
/// `wanted` accepts, several at a time, each in its own process with a time limit.
Catalog discover(const std::vector<std::filesystem::path>& folders,
                 const std::function<bool(const std::string&)>& wanted = {});

/// The folder of the running lifebench, where its experiments/ and datasets/ lie; empty
/// where /proc does not tell.
std::filesystem::path program_folder();

} // namespace lifebench::driver
