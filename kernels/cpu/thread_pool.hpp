// A fixed team of threads reused for every generation (seed 000: "a thread pool so
// the overhead of spawning the threads is amortized over the steps"): the workers
// start with the pool and wait on a barrier between jobs; the calling thread is
// worker 0. Used by simd-hwy, cpu-blocked and cpu3d-threads.
#pragma once

#include "lifebench/experiment.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace lifebench::pool {

/// Value of the `threads` parameter: "all" (every hardware thread) or 1..1024.
inline std::optional<int> parse_threads(const std::string& text) {
  if (text == "all") return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  int threads = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), threads);
  if (error != std::errc{} || end != text.data() + text.size() || threads < 1 || threads > 1024) {
    return std::nullopt;
  }
  return threads;
}

inline std::optional<std::string> threads_unsupported(const Params& params) {
  if (!parse_threads(params.get("threads"))) return "threads must be \"all\" or 1..1024";
  return std::nullopt;
}

/// The `threads` parameter, checked by threads_unsupported() before.
inline int threads_of(const Params& params) {
  return *parse_threads(params.get("threads"));
}

inline Axis threads_axis(const std::string& what, const std::string& default_value = "1") {
  return {"threads", default_value, {}, what + "; \"all\" = every hardware thread"};
}

class ThreadPool {
public:
  explicit ThreadPool(int threads) : start_(threads), done_(threads) {
    workers_.reserve(static_cast<std::size_t>(threads - 1));
    for (int index = 1; index < threads; ++index) {
      workers_.emplace_back([this, index] { work(index); });
    }
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    stop_ = true;
    start_.arrive_and_wait(); // the workers see stop_ and return; jthread joins them
  }

  [[nodiscard]] int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Runs job(index) on every worker, index in [0, size()), and returns when all are done.
  /// The barriers order the job's memory accesses between calls.
  void run(const std::function<void(int)>& job) {
    if (workers_.empty()) {
      job(0);
      return;
    }
    job_ = &job;
    start_.arrive_and_wait();
    job(0);
    done_.arrive_and_wait();
  }

private:
  void work(int index) {
    for (;;) {
      start_.arrive_and_wait();
      if (stop_) return;
      (*job_)(index);
      done_.arrive_and_wait();
    }
  }

  std::barrier<> start_;
  std::barrier<> done_;
  const std::function<void(int)>* job_ = nullptr;
  bool stop_ = false;
  std::vector<std::jthread> workers_; // last: joined before the barriers are destroyed
};

/// The part [begin, end) of `count` items that worker `index` of `workers` takes.
struct Share {
  std::int64_t begin;
  std::int64_t end;
};
inline Share share(std::int64_t count, int index, int workers) {
  return {count * index / workers, count * (index + 1) / workers};
}

/// Items 0..count-1 handed out one at a time to whichever worker asks next. Unlike
/// equal shares, a worker on a slower core (a busy neighbour, a lower clock) takes fewer
/// items instead of holding up the others at the end of the job.
class WorkQueue {
public:
  /// Starts over with `count` items; call between jobs (ThreadPool::run orders it).
  void reset(std::int64_t count) {
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
  }
  /// The next item, or nullopt when all are taken.
  std::optional<std::int64_t> take() {
    const std::int64_t item = next_.fetch_add(1, std::memory_order_relaxed);
    if (item < count_) return item;
    return std::nullopt;
  }

private:
  std::atomic<std::int64_t> next_{0};
  std::int64_t count_ = 0;
};

} // namespace lifebench::pool
