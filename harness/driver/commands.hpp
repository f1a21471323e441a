// The driver's subcommands; each returns the process exit status and throws
// Error for anything that stops it (main() prints it as one line).
#pragma once

#include "lifebench/exit_codes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace lifebench::driver {

struct GlobalOptions {
  std::vector<std::string> experiment_folders; ///< --experiments, repeatable
};

/// `lifebench list`: one line per experiment with its availability, or with `json` one JSON
/// document of them all.
int list_command(const GlobalOptions& global, bool json);

/// `lifebench run --impl NAME ...`: replaces this process with the experiment's `run`.
int run_command(const GlobalOptions& global, const std::string& impl,
                const std::vector<std::string>& arguments);

struct VerifyOptions {
  std::string impl = "*";
  double time_limit_s = 3600;
};

/// `lifebench verify`: every matching experiment's conformance matrix, then a summary.
int verify_command(const GlobalOptions& global, const VerifyOptions& options);

struct BenchOptions {
  std::vector<std::string> sweeps;
  std::string impl = "*";
  std::optional<std::string> out;
  bool resume = false;
  std::optional<double> time_limit_s;
  bool dry_run = false;
  int parallel_gpus = 1;    ///< one-GPU configurations run this many at once, one a GPU
  bool show_stderr = false; ///< the experiments' standard error copied to ours as it comes
  std::vector<std::string> command_line; ///< recorded in the manifest
  /// --machine: the machine's name in the results, else one derived from its hardware
  std::optional<std::string> machine;
};

/// Adds `lifebench bench`'s arguments to its subcommand (all but the command line).
void add_bench_options(CLI::App& command, BenchOptions& options);

/// `lifebench bench`: expands the sweeps, runs each configuration in its own process.
int bench_command(const GlobalOptions& global, const BenchOptions& options);

struct CompareOptions {
  std::string old_dir;
  std::string new_dir;
  std::optional<double> fail_on_regression_pct;
  double alpha = 0.05; ///< compare.py's default
};

/// Adds `lifebench compare`'s arguments to its subcommand.
void add_compare_options(CLI::App& command, CompareOptions& options);

/// `lifebench compare OLD NEW`: one line per configuration both results folders hold.
int compare_command(const CompareOptions& options);

} // namespace lifebench::driver
