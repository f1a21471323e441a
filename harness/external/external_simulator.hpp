// The simulator of an external experiment: each advance runs the described program once,
// the state going to it as a file and coming back from the file it writes.
#pragma once

#include "description.hpp"
#include "lifebench/error.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/rle.hpp"
#include "process.hpp"
#include "program.hpp"

#include <memory>

namespace lifebench::external {

class ExternalSimulator final : public Simulator {
public:
  ExternalSimulator(std::shared_ptr<const Description> description, Program program,
                    const Problem& problem);

  void upload(const Grid& grid) override;
  void advance(std::uint64_t generations) override { run(generations); }
  Grid download() override { return state_; }
  /// One run of the program: its process's wall time, or the time it prints.
  double timed_advance(std::uint64_t generations) override;
  [[nodiscard]] std::string clock() const override;
  /// Unknown for a program of elsewhere (Golly's algorithms follow it): every repetition
  /// starts from the start, at the cost of an untimed upload.
  [[nodiscard]] bool pace_follows_state() const override { return true; }

private:
  /// Runs the program on the state; throws Error, one line naming the description and the
  /// program, when it fails or writes no state of this problem.
  driver::ProcessOutcome run(std::uint64_t generations);
  /// The place (Golly's x and y of its top-left cell) of the box of live cells the last run
  /// wrote, printed by the description's place run from `input` after `generations`; throws
  /// Error.
  [[nodiscard]] Position placed(const std::filesystem::path& input,
                                std::uint64_t generations) const;
  /// The script file of the place run, in the scratch folder.
  [[nodiscard]] std::filesystem::path script() const { return folder_.path() / "place.script"; }
  /// The values of the command placeholders for a run from `input`.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>>
  placeholders(const std::filesystem::path& input, const std::filesystem::path& output,
               std::uint64_t generations) const;
  /// The time the program printed, in seconds; throws Error.
  [[nodiscard]] double printed_seconds(const driver::ProcessOutcome& outcome,
                                       std::uint64_t generations) const;
  /// "<description>: <program> (<generations> generations of <problem>): ", which starts
  /// every message about a run.
  [[nodiscard]] std::string run_named(std::uint64_t generations) const;

  std::shared_ptr<const Description> description_;
  Program program_;
  Problem problem_;
  InterruptGuard interrupts_; // before the folder, so that it is removed on an interrupt too
  driver::ScratchFolder folder_;
  Grid state_;
};

} // namespace lifebench::external
