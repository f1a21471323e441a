// The experiment process's side of the MPI experiments (cpu-mpi, cuda-nccl): a Simulator
// whose advance() starts the ranks with mpirun, so that run, verify, the conformance tests
// and bench drive them as any other simulator. The universe lives in a file, written by
// upload and read by download as the out-of-core experiments do; each advance starts the
// experiment's rank program (lifebench-rank-<name>, beside its executable, rank_main.hpp)
// as `ranks` processes, which read their bands from the file, advance them together and
// write them back in place. Rank 0 times the advance alone (MPI_Wtime between two
// barriers, after every band is loaded and before any is stored) and reports that time,
// the hosts, its device and the ranks' timed parts in a small JSON file beside the
// universe: timed_advance() returns the ranks' own time, not the processes' start or the
// file's reads and writes.
#pragma once

#include "common/universe_file.hpp"
#include "lifebench/experiment.hpp"
#include "mpi/rank_failure.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace lifebench::mpi {

/// How an experiment's ranks are started.
struct RankLaunch {
  std::string experiment; ///< its rank program is lifebench-rank-<experiment>
  int ranks = 1;
  /// Variables set for every rank (and passed on to the ranks of other hosts), over ours.
  std::map<std::string, std::string> environment;
};

class RanksSimulator final : public Simulator {
public:
  /// `params` go to every rank as they are; they must hold halo_steps and folder.
  RanksSimulator(const Problem& problem, const Params& params, RankLaunch launch);

  void upload(const Grid& grid) override { file_.upload(grid); }
  void upload_soup(const SoupSpec& soup) override { file_.upload_soup(soup); }
  void advance(std::uint64_t generations) override { run_ranks(generations); }
  double timed_advance(std::uint64_t generations) override { return run_ranks(generations); }
  Grid download() override { return file_.download(); }

  [[nodiscard]] std::string clock() const override { return "mpi_wtime"; }
  /// The ranks, hosts, halo bytes per generation and MPI library, and what rank 0 reported
  /// of its device in the last advance.
  [[nodiscard]] std::map<std::string, std::string> device() const override;
  /// The parts of the last advance the ranks timed, each as its longest and shortest over
  /// the ranks (rank_main.hpp).
  [[nodiscard]] std::map<std::string, double> phase_seconds() const override { return phases_; }

private:
  /// Starts the ranks, waits for them, and returns rank 0's time of the advance.
  double run_ranks(std::uint64_t generations);

  Problem problem_;
  Params params_;
  RankLaunch launch_;
  outofcore::UniverseFile file_;
  std::map<std::string, std::string> reported_;
  std::map<std::string, double> phases_;
};

/// The `transport` axis: how the ranks of one host talk. "host" leaves the choice to Open
/// MPI and NCCL (shared memory, NVLink); "sockets" sends every message over TCP through the
/// loopback interface, as ranks on hosts without a shared fabric would, so that several
/// hosts are rehearsed on one (Open MPI's tcp transport; NCCL's socket transport).
Axis transport_axis();

/// The `bands` axis: equal bands, or bands sized by the ranks' speeds that they measure, all
/// at once, before each advance's timed part (rank_main.cpp): cores of unequal speed then
/// finish their bands together rather than wait for the slowest at every exchange.
Axis bands_axis();

/// The environment that puts ranks on the `transport` of `params` (empty for "host" or where
/// the experiment has no such axis); launches add it to their own.
std::map<std::string, std::string> transport_environment(const Params& params);

/// mpirun: LIFEBENCH_MPIEXEC where set, else the one found when lifebench was configured.
std::filesystem::path mpiexec();

/// Why `experiment`'s ranks cannot start on this machine (no mpirun, no rank program), or
/// nothing.
std::optional<std::string> ranks_unavailable(const std::string& experiment);

/// Why `ranks` ranks cannot share `problem` with the halo_steps and folder of `params`, or
/// nothing: the bands must be at least halo_steps rows tall and the universe a torus.
std::optional<std::string> ranks_unsupported(const Problem& problem, const Params& params,
                                             int ranks);

/// The registration of an experiment whose ranks mpirun starts (cpu-mpi, cuda-nccl): `info`
/// as the experiment gives it, its `unavailable` (what else it needs) asked first; `ranks`
/// counts the ranks in the parameters, `environment` is set for each (RankLaunch).
inline ExperimentInfo ranks_experiment(ExperimentInfo info, int (*ranks)(const Params&),
                                       std::map<std::string, std::string> environment = {}) {
  info.unavailable = [name = info.about.name, first = info.unavailable] {
    if (auto reason = first()) return reason;
    return ranks_unavailable(name);
  };
  info.make = [name = info.about.name, ranks, environment](
                  const Problem& problem, const Params& params) -> std::unique_ptr<Simulator> {
    return std::make_unique<RanksSimulator>(problem, params,
                                            RankLaunch{name, ranks(params), environment});
  };
  return info;
}

} // namespace lifebench::mpi
