// Child processes a signal handler asks to end: a process that a signal ends cannot wait for
// its children, and one they outlive keeps the machine busy (run's mpirun and its ranks).
#pragma once

#include <sys/types.h>

namespace lifebench {

/// Notes a child process for end_children_in_progress() for as long as it lives (up to 16 at
/// once; one more is not noted).
class ChildInProgress {
public:
  explicit ChildInProgress(pid_t child);
  ~ChildInProgress();
  /// Once the child is reaped: its pid may be another process's soon.
  void forget();
  ChildInProgress(const ChildInProgress&) = delete;
  ChildInProgress& operator=(const ChildInProgress&) = delete;

private:
  int slot_ = -1;
};

/// Sends SIGTERM to each child noted now. Async-signal-safe: for a signal's handler.
void end_children_in_progress() noexcept;

} // namespace lifebench
