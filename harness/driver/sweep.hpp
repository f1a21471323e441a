// Sweep files: reading and checking them against the experiments' descriptions,
// choosing runs by sweep name, and expanding runs into configurations.
//
// clang-format off
//   [defaults]                          # optional: what every run takes unless it gives its
//   time_limit_s = 300                  # own; any of sweeps, rule, boundary, shape, density,
//   params = { steps_per_launch = 8 }   # generations, repetitions, max_repetitions,
//                                       # target_rel_ci, timing_budget_s, warmup, time_limit_s,
//                                       # params (merged by parameter: a run's own parameter
//                                       # wins) and table (of the runs that give row and
//                                       # column; the others stay untied). Not experiment,
//                                       # row, column or ties: they are each run's own.
//
//   [[run]]
//   sweeps = ["cpu", "gpu"]             # named sweeps including it (required in <name>.sweep.toml)
//   experiment = "cpu-trivial"          # required in a standalone file
//   rule = "B3/S23"                     # default: the family's
//   boundary = "torus"                  # torus | dead
//   shape = ["1024x1024", "4096x4096"]  # string or list
//   density = 0.001                     # initial soup density in (0, 1], number or list
//                                       # (default: the family's soup density)
//   pattern = "datasets/acorn.rle"      # instead of soups: a pattern file placed on the grid,
//                                       # string or list (sweep_pattern.hpp: where it is found)
//   offset = "10,20"                    # the pattern's top-left cell; default: centred
//   generations = 16                    # required
//   repetitions = 5                     # timed at least, default 5; then more until the
//                                       # median's 95 % interval is within target_rel_ci:
//   target_rel_ci = 0.01                # its half-width over the median, default 0.01
//   max_repetitions = 100               # default 100 (or repetitions, if more)
//   timing_budget_s = 5                 # default 5: no repetition past the minimum is begun
//                                       # that would end after this much timing
//   warmup = 1                          # default 1
//   time_limit_s = 600                  # default 600
//   params = { variant = ["a", "b"], threads = 4 }  # lists multiply (at most 100,000
//                                       # configurations in all the runs of one bench)
//   table = "fujita2017-table1"         # with row and column: the published cell measured;
//   row = "CPU"                         # a list of columns ties it to several cells of the row
//   column = "word-per-cell"
//   # or, instead of table/row/column, any cells of any tables:
//   # ties = [{ table = "t", row = "r", column = "c" }, { table = "u", row = "r", column = "c" }]
// clang-format on
#pragma once

#include "discovery.hpp"
#include "lifebench/configuration.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/rle.hpp" // Position

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::driver {

/// A published table cell a configuration measures.
struct Tie {
  std::string table;
  std::string row;
  std::string column;
  friend bool operator==(const Tie&, const Tie&) = default;
};

/// One [[run]] of a sweep file, checked.
struct SweepRun {
  std::string file;
  int index = 0; ///< 1-based position among the file's runs
  int line = 0;
  std::vector<std::string> sweeps;
  std::string experiment;
  Rule rule;
  Boundary boundary = Boundary::torus;
  std::vector<Shape> shapes;
  std::vector<double> densities;     ///< empty: the family's soup density
  std::vector<std::string> patterns; ///< as given; empty: soups
  std::optional<Position> offset;    ///< of the patterns; none: centred
  std::uint64_t generations = 0;
  int repetitions = 5; ///< at least
  int max_repetitions = 100;
  double target_rel_ci = 0.01;
  double timing_budget_s = 5;
  int warmup = 1;
  double time_limit_s = 600;
  std::vector<std::pair<std::string, std::vector<std::string>>> params; ///< by name
  std::vector<Tie> ties;            ///< distinct, in the order given
  std::uint64_t configurations = 0; ///< shapes x densities (or patterns) x each parameter's values

  /// "FILE:LINE: run #N", the prefix of every message about it.
  [[nodiscard]] std::string where() const;
};

/// Reads and checks a sweep file; throws Error naming the file, line, run and fault.
/// `owner`: the experiment whose own `<name>.sweep.toml` it is, or null for a standalone file.
std::vector<SweepRun> read_sweep_file(const std::filesystem::path& file, const Catalog& catalog,
                                      const Experiment* owner);

/// True when a --sweep argument names a file rather than a named sweep.
bool names_a_file(const std::string& sweep);

/// The runs that --sweep arguments select, each run once, in the order given;
/// throws Error on a faulty file or a named sweep that selects nothing.
std::vector<SweepRun> select_runs(const std::vector<std::string>& sweeps, const Catalog& catalog);

/// One configuration of a sweep: what it measures (its name() is the results' config_id),
/// and what the sweep adds: where to find its experiment, its time limit and its cells.
struct SweepConfiguration : Configuration {
  const Experiment* info = nullptr;
  double time_limit_s = 600;
  std::vector<Tie> ties; ///< the union of the ties of every run reaching it
  std::string origin;    ///< the first run's where()

  /// The ties as the results record them: an array of {table, row, column}.
  [[nodiscard]] nlohmann::json ties_json() const;
};

/// Shapes × densities (or patterns) × parameter product of every run, in order; one configuration
/// reached twice is kept once with the union of their ties, and throws Error if the two disagree on
/// repetitions, warmup or the stopping rule.
std::vector<SweepConfiguration> expand(const std::vector<SweepRun>& runs, const Catalog& catalog);

} // namespace lifebench::driver
