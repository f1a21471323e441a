// The program an external experiment runs: where it is, which version, and running it so
// that it never outlives this process.
#pragma once

#include "description.hpp"
#include "process.hpp"

#include <array>
#include <csignal>
#include <filesystem>
#include <string>

namespace lifebench::external {

struct Program {
  std::filesystem::path path;
  std::string version; ///< empty when the description reads none
};

/// The description's program: the path its path_variable names when that is set, else its
/// name on PATH (or its absolute path), with the version it prints. Throws Error saying why
/// it cannot be run (the experiment is then unavailable).
Program find_program(const Description& description);

/// While it lives, SIGINT, SIGTERM and SIGHUP only set the flag that run_program() and
/// throw_if_interrupted() act on, so that this process can stop its program and remove its
/// files first; the handlers before are put back when it goes.
class InterruptGuard {
public:
  InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard();

private:
  std::array<struct sigaction, 3> saved_{};
};

/// Throws Error once one of those signals came.
void throw_if_interrupted();

/// Runs `request` (argv[0] the program). SIGINT, SIGTERM and SIGHUP meanwhile stop the
/// program's whole process group, and then this call throws Error, so that a stopped
/// benchmark leaves no program running and no files behind.
driver::ProcessOutcome run_program(const driver::ProcessRequest& request);

} // namespace lifebench::external
