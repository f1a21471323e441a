#include "bench_schedule.hpp"

#include "lifebench/error.hpp"
#include "lifebench/exit_codes.hpp"
#include "lifebench/result_record.hpp"
#include "process.hpp"
#include "sweep_pattern.hpp"
#include "text.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// What the driver records itself when the experiment wrote nothing it can use.
nlohmann::json own_result(const SweepConfiguration& c, ResultStatus status,
                          const std::string& reason) {
  const Experiment& e = *c.info;
  std::map<std::string, std::string> params = c.params;
  try {
    params = c.resolved_params(e.axes).values();
  } catch (const Error&) {
    // Checked when the sweep was read; keep what the sweep gave.
  }
  ResultRecord result{.experiment = e.name,
                      .backend = e.backend,
                      .family = e.family,
                      .params = std::move(params),
                      .problem = c.problem,
                      .generations = c.generations,
                      .density = c.density,
                      .pattern = result_pattern(c),
                      .external = e.external};
  result.fail(status, reason);
  return result.to_json();
}

/// Interrupted by SIGINT, SIGTERM or SIGHUP: stop, keep what is recorded.
struct Interrupted {};

/// What running one configuration gave.
struct Measured {
  nlohmann::json result;
  std::optional<double> wall_s; ///< how long its process ran; none when none ran
};

/// Runs one configuration in its own process, on `gpu` alone when one is given, its standard
/// error copied to ours as it comes with `show_stderr`.
Measured run_configuration(const SweepConfiguration& c, double time_limit_s,
                           const ScratchFolder& scratch, const std::optional<std::string>& gpu,
                           bool show_stderr) {
  const Experiment& e = *c.info;
  if (!e.available) return {own_result(c, ResultStatus::unavailable, e.reason), std::nullopt};
  const fs::path json_out = scratch.path() / "result.json";
  ProcessRequest request;
  if (gpu) request.environment.push_back("CUDA_VISIBLE_DEVICES=" + *gpu);
  // Its temporary files in the scratch folder, which goes when it ends: one stopped at its time
  // limit cannot remove its own (an out-of-core universe may be gigabytes).
  request.environment.push_back("TMPDIR=" + scratch.path().string());
  request.argv = {e.binary.string(), "bench"};
  std::ranges::copy(to_argv(c, json_out), std::back_inserter(request.argv));
  request.time_limit_s = time_limit_s;
  request.echo_stderr = show_stderr;
  const ProcessOutcome outcome = run_process(request);
  if (outcome.end == ProcessOutcome::End::interrupted) throw Interrupted{};

  nlohmann::json result;
  if (outcome.succeeded()) {
    std::error_code error;
    if (!fs::exists(json_out, error)) {
      result = own_result(c, ResultStatus::failed, "no result written");
    } else {
      try {
        result = read_json_object(json_out);
      } catch (const Error&) { // not JSON, or nested too deep to be a result
      }
      if (!result.is_object() || !parse_result_status(string_at(result, "status"))) {
        result = own_result(c, ResultStatus::failed, "the result written is not a valid result");
      }
    }
  } else if (outcome.end == ProcessOutcome::End::exited && outcome.exit_code == kExitUnavailable) {
    const std::string reason = last_line(outcome.stderr_tail);
    result = own_result(c, ResultStatus::unavailable, reason.empty() ? "unavailable" : reason);
  } else {
    result = own_result(c, ResultStatus::failed, outcome.failure(time_limit_s));
  }
  if (result["status"] == "failed" && !outcome.stderr_tail.empty() &&
      !result.contains("stderr_tail")) {
    result["stderr_tail"] = outcome.stderr_tail;
  }
  return {std::move(result), outcome.wall_s};
}

/// Runs `run(i, gpu)` for each i of `batch`, one at a time on each of `gpus`; hands out no
/// more once one says it was interrupted (returns true) or throws, and says whether one was
/// interrupted. An exception reaches the caller after every running configuration ended.
bool run_beside_each_other(const std::vector<std::size_t>& batch,
                           const std::vector<std::string>& gpus,
                           const std::function<bool(std::size_t, const std::string&)>& run) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> interrupted{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  {
    std::vector<std::jthread> workers;
    workers.reserve(gpus.size());
    for (const auto& gpu : gpus) {
      workers.emplace_back([&, gpu] {
        try {
          for (std::size_t k = next++; k < batch.size() && !stop; k = next++) {
            if (interrupt_signal() != 0 || run(batch[k], gpu)) {
              interrupted = true;
              stop = true;
            }
          }
        } catch (...) {
          const std::scoped_lock lock(error_mutex);
          if (!error) error = std::current_exception();
          stop = true;
        }
      });
    }
  }
  if (error) std::rethrow_exception(error);
  return interrupted;
}

/// Runs the configurations of a schedule and records them, saying each on standard output.
class Scheduler {
public:
  Scheduler(const Schedule& schedule, ResultsFolder& folder, SweepProgress& progress)
      : schedule_(schedule), folder_(folder), progress_(progress) {}

  /// In sweep order: one configuration alone, or a batch of those that share the GPUs (the
  /// kept ones among them said as their turn comes); says whether one was interrupted.
  bool run() {
    const auto& kept = schedule_.plan.kept;
    const std::size_t total = schedule_.configurations.size();
    bool interrupted = false;
    for (std::size_t i = 0; i < total && !interrupted;) {
      if (interrupt_signal() != 0) {
        interrupted = true;
      } else if (!kept[i] && !schedule_.shares_gpus(i)) {
        interrupted = run_and_record(i++, std::nullopt);
      } else {
        std::vector<std::size_t> batch;
        for (; i < total && (kept[i] || schedule_.shares_gpus(i)); ++i) {
          if (kept[i]) {
            say_kept(i);
          } else {
            batch.push_back(i);
          }
        }
        interrupted = run_beside_each_other(
            batch, schedule_.gpus,
            [this](std::size_t k, const std::string& gpu) { return run_and_record(k, gpu); });
      }
    }
    return interrupted;
  }

private:
  void say_kept(std::size_t i) const {
    std::cout << progress_.position(i) << schedule_.configurations[i].label()
              << " … done earlier: " << progress_outcome(*schedule_.plan.kept[i], std::nullopt)
              << std::endl;
  }

  /// Runs configuration i (on `gpu` beside others, when given) and records it; says whether
  /// it was interrupted.
  bool run_and_record(std::size_t i, const std::optional<std::string>& gpu) {
    const SweepConfiguration& c = schedule_.configurations[i];
    const std::string label = c.label() + (gpu ? " on GPU " + *gpu : std::string());
    // Alone, the line starts when the configuration does and ends with its outcome; beside
    // others, it comes whole when it ends. Its standard error shown, it comes whole at both
    // ends, the error's lines between. Each piece goes out in one write.
    const bool whole_at_the_end = gpu || schedule_.show_stderr;
    if (!gpu) {
      std::cout << progress_.position(i) + label + (schedule_.show_stderr ? " …\n" : " … ")
                << std::flush;
    }
    const auto start_again = [&] {
      return whole_at_the_end ? progress_.position(i) + label + " … " : std::string();
    };
    const double limit = schedule_.time_limit_s.value_or(c.time_limit_s);
    try {
      auto [result, wall] = run_configuration(c, limit, ScratchFolder(scratch_, std::to_string(i)),
                                              gpu, schedule_.show_stderr);
      result["config_id"] = c.name();
      result["ties"] = c.ties_json();
      result["binary_hash"] = schedule_.plan.hashes.at(c.experiment);
      // The pattern as the sweep names it, not where this machine keeps it.
      if (c.pattern && result.contains("pattern")) result["pattern"]["path"] = *c.pattern;
      if (gpu && result.contains("device") && result["device"].is_object()) {
        result["device"]["cuda_visible_devices"] = *gpu;
      }
      const std::scoped_lock lock(mutex_);
      std::string line = start_again() + progress_outcome(result, wall);
      if (wall) {
        result["wall_s"] = *wall;
        progress_.measured(i, *wall);
        if (const std::string left = progress_.left(); !left.empty()) line += "; " + left;
      }
      std::cout << line + '\n' << std::flush;
      folder_.record(i, c.experiment, std::move(result));
      return false;
    } catch (const Interrupted&) {
      const std::scoped_lock lock(mutex_);
      std::cout << start_again() + "interrupted\n" << std::flush;
      return true;
    }
  }

  const Schedule& schedule_;
  ResultsFolder& folder_;
  SweepProgress& progress_;
  /// A folder for each configuration's --json-out file and temporary files: a process killed
  /// while writing leaves its temporaries there, never in the results folder.
  const ScratchFolder scratch_{"lifebench-bench"};
  std::mutex mutex_; ///< standard output, the progress and the results folder
};

} // namespace

bool Schedule::shares_gpus(std::size_t i) const {
  return !gpus.empty() && plan.to_run[i] && runs_beside_others(*configurations[i].info);
}

bool run_schedule(const Schedule& schedule, ResultsFolder& folder, SweepProgress& progress) {
  return Scheduler(schedule, folder, progress).run();
}

std::vector<std::string> parallel_gpu_ids(int n) {
  if (n <= 1) return {};
  std::vector<std::string> ids;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr) {
    for (int i = 0; i < n; ++i)
      ids.push_back(std::to_string(i));
    return ids;
  }
  std::istringstream list(visible);
  for (std::string id; std::ssize(ids) < n && std::getline(list, id, ',');) {
    if (!id.empty()) ids.push_back(id);
  }
  if (std::ssize(ids) < n) {
    throw Error("--parallel-gpus " + std::to_string(n) + ": CUDA_VISIBLE_DEVICES names " +
                std::to_string(ids.size()) + " GPUs (" + quote(visible, '\'') + ")");
  }
  return ids;
}

} // namespace lifebench::driver
