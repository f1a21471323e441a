// Sub-universes through three stages, read -> simulate -> write, either one after
// another on the calling thread (the paper's scheme) or overlapped: a reader thread and
// a writer thread around the calling thread's simulation, sharing a ring of slots, so
// that the disk reads the next sub-universe and writes the last one while the GPU works
// on this one. A simulation may be begun and ended apart (settle): overlapped, the next
// item's is begun before this one's is waited for where it has been read, so that the GPU
// copies one item while it computes the other. Each stage's busy seconds are measured, for the
// paper's Table 3 split.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

namespace lifebench::outofcore_pipeline {

/// Busy seconds of each stage (overlapped stages add up to more than the wall time).
struct StageSeconds {
  double read = 0;
  double simulate = 0;
  double write = 0;
};

/// What each stage does with item k in slot s (s < the slot count given to run()).
struct Stages {
  std::function<void(int k, int s)> read;
  std::function<void(int k, int s)> simulate;
  std::function<void(int k, int s)> write;
  /// Waits until item k's simulation, which `simulate` began, has ended, its result in slot s;
  /// none: `simulate` ends it. Overlapped, item k's is waited for once item k + 1's is begun,
  /// or at once where item k + 1 is not yet read (its write need not wait for that read).
  std::function<void(int k, int s)> settle = {};
};

namespace detail {

inline double seconds_of(const std::function<void(int, int)>& stage, int k, int s) {
  const auto start = std::chrono::steady_clock::now();
  stage(k, s);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// How far each stage has got: items done per stage, and the first error.
class Progress {
public:
  /// Waits until `ready` holds or a stage failed; false if one failed.
  template <class Ready> bool wait(Ready ready) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ != nullptr || ready(); });
    return failed_ == nullptr;
  }
  /// Whether `ready` holds now.
  template <class Ready> bool holds(Ready ready) {
    const std::lock_guard lock(mutex_);
    return ready();
  }
  void advance(int& counter) {
    {
      const std::lock_guard lock(mutex_);
      ++counter;
    }
    changed_.notify_all();
  }
  void fail(std::exception_ptr error) {
    {
      const std::lock_guard lock(mutex_);
      if (failed_ == nullptr) failed_ = std::move(error);
    }
    changed_.notify_all();
  }
  void rethrow() const {
    if (failed_ != nullptr) std::rethrow_exception(failed_);
  }

  int read = 0; ///< items read, simulated, written (under the mutex)
  int simulated = 0;
  int written = 0;

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::exception_ptr failed_;
};

} // namespace detail

/// Runs items 0 .. count - 1 through `stages`. Without overlap one slot is used and
/// the stages run in turn; with it `slots` (at least 2) rotate: item k uses slot
/// k % slots, read once item k - slots is written. The first error of any stage stops
/// every stage and is rethrown here, after both threads have ended and every item whose
/// simulate returned has had its settle tried.
inline StageSeconds run(int count, bool overlap, int slots, const Stages& stages) {
  StageSeconds seconds;
  const auto settle = [&](int k, int s) {
    if (stages.settle) seconds.simulate += detail::seconds_of(stages.settle, k, s);
  };
  if (!overlap) {
    for (int k = 0; k < count; ++k) {
      seconds.read += detail::seconds_of(stages.read, k, 0);
      seconds.simulate += detail::seconds_of(stages.simulate, k, 0);
      settle(k, 0);
      seconds.write += detail::seconds_of(stages.write, k, 0);
    }
    return seconds;
  }
  detail::Progress progress;
  const auto stage_thread = [&](const std::function<void(int, int)>& stage, double& busy, int& done,
                                auto ready) {
    try {
      for (int k = 0; k < count; ++k) {
        if (!progress.wait([&] { return ready(k); })) return;
        busy += detail::seconds_of(stage, k, k % slots);
        progress.advance(done);
      }
    } catch (...) {
      progress.fail(std::current_exception());
    }
  };
  {
    const std::jthread reader([&] {
      stage_thread(stages.read, seconds.read, progress.read,
                   [&](int k) { return progress.written >= k - slots + 1; });
    });
    const std::jthread writer([&] {
      stage_thread(stages.write, seconds.write, progress.written,
                   [&](int k) { return progress.simulated > k; });
    });
    // Item k begun, then (with settle) item k - 1 ended, or item k - 1 ended first where item
    // k is not read yet; the last ended after the loop.
    int open = -1; // the item begun whose settle is not yet tried
    const auto end = [&](int k) {
      settle(k, k % slots);
      progress.advance(progress.simulated);
    };
    const auto end_open = [&] { end(std::exchange(open, -1)); };
    try {
      for (int k = 0; k < count; ++k) {
        const auto read = [&] { return progress.read > k; };
        if (open >= 0 && !progress.holds(read)) end_open();
        if (!progress.wait(read)) break;
        seconds.simulate += detail::seconds_of(stages.simulate, k, k % slots);
        if (const int before = std::exchange(open, k); before >= 0) end(before);
        if (!stages.settle) end_open();
      }
      if (open >= 0) end_open();
    } catch (...) {
      progress.fail(std::current_exception());
      // An item begun whose settle was not tried (a simulate or the settle before it failed):
      // its copies may still be at work on the GPU.
      if (open >= 0) {
        try {
          settle(open, open % slots);
        } catch (...) { // the first error is the one rethrown
        }
      }
    }
  }
  progress.rethrow();
  return seconds;
}

/// Says how far a run of many passes got, a line at most every `every`: a pass of the paper's
/// problem takes more than a minute and a run half an hour. A line gives the pass's wall time
/// and its stages' busy seconds (with overlap these overlap, and a pass's write includes the
/// wait for the pass before to reach the disk). lifebench bench --show-stderr shows the lines
/// as they come; a run stopped at its time limit keeps the last ones in its result
/// (stderr_tail).
class PassLog {
public:
  using Clock = std::chrono::steady_clock;

  PassLog(std::ostream& out, std::string name, std::uint64_t passes, Clock::duration every,
          Clock::time_point start)
      : out_(out), name_(std::move(name)), passes_(passes), every_(every), said_(start),
        pass_began_(start) {}

  /// Pass `pass` (from 1) ended at `now` at generation `generation`, its stages busy for
  /// `seconds`.
  void ended(std::uint64_t pass, std::uint64_t generation, const StageSeconds& seconds,
             Clock::time_point now) {
    const std::chrono::duration<double> took = now - pass_began_;
    pass_began_ = now;
    if (now - said_ < every_) return;
    said_ = now;
    std::ostringstream line; // one write: the driver may copy it while we run
    line << name_ << ": pass " << pass << " of " << passes_ << " took " << std::fixed
         << std::setprecision(1) << took.count() << " s, to generation " << generation << ": read "
         << seconds.read << " s, simulate " << seconds.simulate << " s, write " << seconds.write
         << " s\n";
    out_ << line.str() << std::flush;
  }

private:
  std::ostream& out_;
  std::string name_;
  std::uint64_t passes_;
  Clock::duration every_;
  Clock::time_point said_;       ///< the last line, or the start
  Clock::time_point pass_began_; ///< the last pass's end, or the start
};

} // namespace lifebench::outofcore_pipeline
