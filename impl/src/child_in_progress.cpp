#include "lifebench/child_in_progress.hpp"

#include <array>
#include <atomic>
#include <csignal>
#include <cstddef>

namespace lifebench {
namespace {

/// Fixed slots of atomics (0: free), which a handler reads without a lock or an allocation.
std::array<std::atomic<pid_t>, 16> g_children{};
static_assert(std::atomic<pid_t>::is_always_lock_free, "read in a signal's handler");

} // namespace

ChildInProgress::ChildInProgress(pid_t child) {
  for (std::size_t slot = 0; slot < g_children.size(); ++slot) {
    pid_t free = 0;
    if (g_children[slot].compare_exchange_strong(free, child)) {
      slot_ = static_cast<int>(slot);
      return;
    }
  }
}

ChildInProgress::~ChildInProgress() {
  forget();
}

void ChildInProgress::forget() {
  if (slot_ >= 0) g_children[static_cast<std::size_t>(slot_)].store(0);
  slot_ = -1;
}

void end_children_in_progress() noexcept {
  for (const auto& child : g_children) {
    if (const pid_t pid = child.load(); pid > 0) ::kill(pid, SIGTERM);
  }
}

} // namespace lifebench
