// The experiment contract. One experiment = one Simulator type plus one
// ExperimentInfo registered with LIFEBENCH_EXPERIMENT; the harness library
// supplies main() for its executable (describe, run, verify, bench).
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/soup.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lifebench {

/// Owns one problem's state on one device.
class Simulator {
public:
  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;
  virtual ~Simulator() = default;

  /// Canonical grid to the simulator's own layout; not timed.
  virtual void upload(const Grid& grid) = 0;
  /// upload() of a seeded soup (the timed runs' start); not timed. An experiment whose
  /// universe lives in a file writes the soup there a row at a time instead, so that no
  /// grid of the whole universe (a byte a cell) is ever made.
  virtual void upload_soup(const SoupSpec& soup);
  /// Advances the state; the only timed call.
  virtual void advance(std::uint64_t generations) = 0;
  /// Own layout back to the canonical grid, after all work is complete; not timed.
  virtual Grid download() = 0;

  /// Runs advance() and returns its duration in seconds. The default uses the
  /// host's steady clock (advance() must then return when the work is done);
  /// device experiments override it with device events.
  virtual double timed_advance(std::uint64_t generations);
  /// What clock timed_advance() reads: "steady_clock", "cuda_events", "opencl_events".
  [[nodiscard]] virtual std::string clock() const { return "steady_clock"; }
  /// Where the simulation runs (device name, platform, driver, clocks), for the results.
  [[nodiscard]] virtual std::map<std::string, std::string> device() const { return {}; }
  /// Bytes the technique must move through memory per generation, when it is memory-bound.
  [[nodiscard]] virtual std::optional<double> bytes_per_generation() const { return std::nullopt; }
  /// Seconds spent in each named phase of the work during the last advance() or
  /// timed_advance() (phases may overlap in time when the experiment pipelines them, so their
  /// sum may exceed the timed seconds); empty when the experiment has no phases. Names are
  /// short lowercase words ("read", "simulate", "write", "compute longest").
  [[nodiscard]] virtual std::map<std::string, double> phase_seconds() const { return {}; }
  /// Whether an advance's pace follows the state it starts from (a cache of blocks met
  /// before, work skipped where nothing lives): then every timed repetition starts from the
  /// timed start again, as a pattern's always do; otherwise a soup's continue one another.
  [[nodiscard]] virtual bool pace_follows_state() const { return false; }
};

/// What a parameter means to the harness, where it means something: the harness asks the
/// axes for a role, never for a parameter by its name.
enum class AxisRole {
  none,
  steps_per_launch, ///< generations one launch (or one pass over memory) advances
  halo_steps,       ///< generations between halo exchanges, or passes over a universe file
  gpu_count,        ///< the GPUs a configuration spreads over
  host_folder,      ///< the folder on the host's disk its universe streams through
};
/// "steps_per_launch", "halo_steps", "gpu_count", "host_folder" ("" for none), as `describe`
/// writes a role.
std::string to_string(AxisRole role);
/// The role a name gives (none for ""); throws Error on another name.
AxisRole parse_axis_role(const std::string& name);

/// A parameter of an experiment, spelled as in its source.
struct Axis {
  std::string name;
  std::string default_value;
  std::vector<std::string> allowed; ///< empty: any value unsupported() accepts
  std::string description;
  AxisRole role = AxisRole::none;
};

/// An axis of role halo_steps, named after it.
inline Axis halo_steps_axis(std::string default_value, std::string description) {
  return {"halo_steps", std::move(default_value), {}, std::move(description), AxisRole::halo_steps};
}

/// An axis of role steps_per_launch, named after it unless `name` says otherwise.
inline Axis steps_per_launch_axis(std::string default_value, std::vector<std::string> allowed,
                                  std::string description, std::string name = "steps_per_launch") {
  return {std::move(name), std::move(default_value), std::move(allowed), std::move(description),
          AxisRole::steps_per_launch};
}

/// The first of `axes` that plays `role`, or null.
const Axis* axis_with_role(const std::vector<Axis>& axes, AxisRole role);

/// Parameter values by name, defaults filled in and checked against the axes.
class Params {
public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  [[nodiscard]] const std::string& get(const std::string& name) const; ///< throws Error if absent
  [[nodiscard]] std::int64_t
  get_int(const std::string& name) const; ///< throws Error if not an integer
  /// A count of bytes up to 1T with an optional K, M or G (powers of 1024); throws Error.
  [[nodiscard]] std::int64_t get_bytes(const std::string& name) const;
  [[nodiscard]] bool has(const std::string& name) const { return values_.contains(name); }
  [[nodiscard]] const std::map<std::string, std::string>& values() const { return values_; }
  [[nodiscard]] std::string to_string() const; ///< "a=1,b=x", sorted by name

private:
  std::map<std::string, std::string> values_;
};

/// What an experiment is, as `list` and `describe` show it. A registration gives all five as
/// one value, in this order (`.about = {"cpu-trivial", "square", "cpu", "seed 000 ...",
/// "one byte per cell, ..."}`), and designated fields only for the rest of ExperimentInfo.
struct About {
  std::string name;      ///< <backend>-<technique>[-<variant>], the directory's name
  std::string family;    ///< "square", "hex" or "3d"
  std::string backend;   ///< "cpu", "simd", "cuda" or "opencl"
  std::string source;    ///< seed file and section reproduced, or "ours"
  std::string technique; ///< one line
};

/// Everything the harness knows of one experiment.
struct ExperimentInfo {
  About about{};            ///< what it is: name, family, backend, source, technique
  std::vector<Axis> axes{}; ///< none: the experiment has no parameters
  /// Why the backend cannot run on this machine (no GPU, no platform), or nothing.
  std::function<std::optional<std::string>()> unavailable = [] { return std::nullopt; };
  /// Why this problem/parameter combination cannot run ("width must be a multiple of 32"), or
  /// nothing.
  std::function<std::optional<std::string>(const Problem&, const Params&)> unsupported =
      [](const Problem&, const Params&) { return std::nullopt; };
  /// Generations a verification runs so that it crosses every internal boundary; the default
  /// is 2 * X + 1 (two whole exchanges or launches and a part of a third) for the axis X of
  /// role halo_steps, else of role steps_per_launch, else 5.
  std::function<std::uint64_t(const Params&)> verify_generations{};
  std::function<std::unique_ptr<Simulator>(const Problem&, const Params&)> make{};
  /// The second, optional contract, for experiments whose universe need not fit in memory
  /// (out-of-core): advances the universe file `in` by `generations` into the universe file
  /// `out` (written whole, atomically, at least once per internal pass) without holding the
  /// universe, `origin` in the header of every pass it writes (UniverseHeader::origin: the
  /// run's, which `run --resume` checks). Only `run` calls it, to stream .lbu to .lbu
  /// (harness/src/run.cpp); `bench` and `verify` time and check the Simulator, whose
  /// advance() may call the same code on a file of its own.
  std::function<void(const std::filesystem::path& in, const std::filesystem::path& out,
                     std::uint64_t generations, const Params&, std::uint64_t origin)>
      advance_universe_file{};
  /// For a program lifebench runs but does not build (experiments/external-*): what the
  /// results record of it ("description", "program" and "version"); empty for our own code.
  std::map<std::string, std::string> external{};
};

/// An ExperimentInfo::make for a Simulator constructed from the problem and the parameters, or
/// from the problem alone: `.make = make_simulator<MySimulator>`.
template <class S>
std::unique_ptr<Simulator> make_simulator(const Problem& problem, const Params& params) {
  if constexpr (std::is_constructible_v<S, const Problem&, const Params&>) {
    return std::make_unique<S>(problem, params);
  } else {
    return std::make_unique<S>(problem);
  }
}

/// The experiment this executable was built from (defined by LIFEBENCH_EXPERIMENT).
const ExperimentInfo& registered_experiment();

} // namespace lifebench

/// Registers the experiment of this executable; use once, at namespace scope.
#define LIFEBENCH_EXPERIMENT(...)                                                                  \
  const ::lifebench::ExperimentInfo& ::lifebench::registered_experiment() {                        \
    static const ::lifebench::ExperimentInfo info = __VA_ARGS__;                                   \
    return info;                                                                                   \
  }
