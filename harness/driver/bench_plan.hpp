// lifebench bench, before anything runs: the configurations a run measures, which earlier
// results in its folder still stand (resume), and what it says about them first.
#pragma once

#include "commands.hpp"
#include "discovery.hpp"
#include "results.hpp"
#include "sweep.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lifebench::driver {

/// The configurations of the sweeps of experiments matching --impl, in sweep order, their
/// patterns found and checked (resolve_patterns); throws Error when none is left or a pattern
/// cannot start its configuration.
std::vector<SweepConfiguration> selected_configurations(const BenchOptions& options,
                                                        const Catalog& catalog);

/// Whether a configuration of `e` may run beside others, each on a GPU of its own: a one-GPU
/// CUDA kernel that neither spreads over several GPUs (an axis of role gpu_count) nor
/// streams its universe through the host's memory and disk (role host_folder), whose time is
/// its GPU's alone. What runs on the CPU or leans on the host runs alone, and so does OpenCL,
/// whose platform may be the CPU's (PoCL).
bool runs_beside_others(const Experiment& e);

/// An earlier result stands when the same binary (`hash`) ran the same configuration with the
/// same warmup and target interval, and at least the repetitions asked now (a result timed
/// nothing when it has no timing; one without a target was timed a fixed number of times).
/// "unavailable" is not a measurement: it is tried again (the device may be back). A result
/// measured beside others (--parallel-gpus) stands only where this lifebench would run it
/// beside others too.
bool still_valid(const nlohmann::json& previous, const SweepConfiguration& c,
                 const std::string& hash);

/// What a run does with each configuration, decided before anything runs or is written.
struct Plan {
  std::vector<std::string> experiments;      ///< in sweep order, each once
  std::map<std::string, std::string> hashes; ///< experiment → binary_hash
  std::set<std::string> ids;                 ///< the configurations' config_id
  /// Results of an earlier run that still stand, under this sweep's ties.
  std::vector<std::optional<nlohmann::json>> kept;
  std::size_t kept_count = 0;
  /// Earlier measurements that do not stand and run now, and the experiments among them
  /// whose binary changed since: the first line says so, so that a rebuild that changed them
  /// is seen at once.
  std::size_t again_count = 0;
  std::set<std::string> rebuilt;
  /// The folder's results of configurations this run does not include, kept as they are.
  std::size_t outside_count = 0;
  /// What runs now, and how long the others' earlier runs took, for the estimates.
  std::vector<bool> to_run;
  std::vector<std::optional<double>> earlier_s;
};

/// The plan of `configurations` in `folder`: what an earlier run recorded there that stands.
Plan make_plan(const std::vector<SweepConfiguration>& configurations, const ResultsFolder& folder);

/// "ok 1.23e9 cells/s (2.1 s)", "FAILED: time limit of 60 s exceeded (65 s)".
std::string progress_outcome(const nlohmann::json& result, std::optional<double> wall_s);

/// The configurations, with the cells each fills and what an earlier run did, and the last
/// line; nothing runs or is written. `gpus`: those of --parallel-gpus.
void print_dry_run(const std::vector<SweepConfiguration>& configurations, const Plan& plan,
                   const std::vector<std::string>& gpus, const std::filesystem::path& out);

/// The run's first line: what it keeps of the folder, what it measures again and why.
std::string first_line(const Plan& plan, const std::filesystem::path& out);

} // namespace lifebench::driver
