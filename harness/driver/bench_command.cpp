// lifebench bench: sweeps → configurations → one experiment process each → results folder.
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/environment.hpp"
#include "lifebench/error.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/params.hpp"
#include "lifebench/result_record.hpp"
#include "machine_load.hpp"
#include "process.hpp"
#include "provenance.hpp"
#include "results.hpp"
#include "sweep.hpp"
#include "sweep_pattern.hpp"
#include "sweep_progress.hpp"
#include "text.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// What the driver records itself when the experiment wrote nothing it can use.
nlohmann::json own_result(const Configuration& c, ResultStatus status, const std::string& reason) {
  const Experiment& e = *c.experiment;
  std::map<std::string, std::string> params = c.params;
  try {
    params = resolve_params(e.name, e.axes, c.params).values();
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

/// Runs one configuration in its own process, on `gpu` alone when one is given.
Measured run_configuration(const Configuration& c, double time_limit_s, const fs::path& json_out,
                           const std::optional<std::string>& gpu) {
  const Experiment& e = *c.experiment;
  if (!e.available) return {own_result(c, ResultStatus::unavailable, e.reason), std::nullopt};
  ProcessRequest request;
  if (gpu) request.environment.push_back("CUDA_VISIBLE_DEVICES=" + *gpu);
  request.argv = {e.binary.string(), "bench"};
  for (const auto& [name, value] : c.params) {
    request.argv.emplace_back("--param");
    request.argv.push_back(name + "=" + value);
  }
  for (const auto& arg :
       {std::string("--problem"), c.problem.to_string(), std::string("--generations"),
        std::to_string(c.generations), std::string("--repetitions"), std::to_string(c.repetitions),
        std::string("--max-repetitions"), std::to_string(c.max_repetitions),
        std::string("--target-rel-ci"), number_text(c.target_rel_ci),
        std::string("--timing-budget-s"), number_text(c.timing_budget_s), std::string("--warmup"),
        std::to_string(c.warmup), std::string("--json-out"), json_out.string()}) {
    request.argv.push_back(arg);
  }
  if (c.density) {
    request.argv.emplace_back("--density");
    request.argv.push_back(number_text(*c.density));
  }
  if (c.pattern) {
    request.argv.emplace_back("--pattern");
    request.argv.push_back(resolve_pattern(*c.pattern).string());
  }
  if (c.offset) {
    request.argv.emplace_back("--offset");
    request.argv.push_back(std::to_string(c.offset->x) + "," + std::to_string(c.offset->y));
  }
  request.time_limit_s = time_limit_s;
  std::error_code error;
  fs::remove(json_out, error);
  const ProcessOutcome outcome = run_process(request);
  if (outcome.end == ProcessOutcome::End::interrupted) throw Interrupted{};

  nlohmann::json result;
  if (outcome.succeeded()) {
    std::ifstream in(json_out, std::ios::binary);
    if (!in) {
      result = own_result(c, ResultStatus::failed, "no result written");
    } else {
      result = nlohmann::json::parse(in, nullptr, false);
      const bool valid = !result.is_discarded() && result.is_object() &&
                         parse_result_status(string_at(result, "status"));
      if (!valid) {
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

/// Whether a configuration of `e` may run beside others, each on a GPU of its own: a one-GPU
/// CUDA kernel that neither spreads over several GPUs (axis `gpus`) nor streams its universe
/// through the host's memory and disk (axis `folder`), whose time is its GPU's alone. What
/// runs on the CPU or leans on the host runs alone, and so does OpenCL, whose platform may
/// be the CPU's (PoCL).
bool runs_beside_others(const Experiment& e) {
  if (e.backend != "cuda") return false;
  return std::ranges::none_of(
      e.axes, [](const Axis& axis) { return axis.name == "gpus" || axis.name == "folder"; });
}

/// The GPUs of --parallel-gpus n: the first n of CUDA_VISIBLE_DEVICES, else 0 ... n-1; none
/// for one (each configuration then sees the GPUs we see).
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

/// "a, b, c and 4 more": the first three of `names`, in their order.
std::string some_of(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 3;
  if (names.size() <= kShown) return join(names, ", ");
  const std::vector<std::string> shown(names.begin(), names.begin() + kShown);
  return join(shown, ", ") + " and " + std::to_string(names.size() - kShown) + " more";
}

/// An earlier result stands when the same binary ran the same configuration with the same
/// warmup and target interval, and at least the repetitions asked now (a result timed
/// nothing when it has no timing; one without a target was timed a fixed number of times).
/// "unavailable" is not a measurement: it is tried again (the device may be back).
/// A result measured beside others (--parallel-gpus) stands only where this lifebench would
/// run it beside others too.
bool still_valid(const nlohmann::json& previous, const Configuration& c, const std::string& hash) {
  if (previous.value("binary_hash", "") != hash) return false;
  if (previous.value("status", "") == "unavailable") return false;
  const auto device = previous.find("device");
  const bool beside_others =
      device != previous.end() && device->is_object() && device->contains("cuda_visible_devices");
  if (beside_others && !runs_beside_others(*c.experiment)) return false;
  const auto timing = previous.find("timing");
  if (timing == previous.end()) return true;
  const auto number = [&](const char* key) {
    const auto it = timing->find(key);
    return it != timing->end() && it->is_number() ? it->get<double>() : -1.0;
  };
  return number("repetitions") >= c.repetitions && number("warmup") == c.warmup &&
         number("target_rel_ci") == c.target_rel_ci;
}

/// "ok 1.23e9 cells/s (2.1 s)", "FAILED: time limit of 60 s exceeded (65 s)".
std::string progress_outcome(const nlohmann::json& result, std::optional<double> wall_s) {
  const std::string status = result.value("status", "failed");
  std::string text;
  if (status == "ok") {
    text = "ok";
    const auto throughput = result.find("throughput");
    if (throughput != result.end() && throughput->is_object() &&
        throughput->contains("cell_updates_per_second") &&
        (*throughput)["cell_updates_per_second"].is_number()) {
      text +=
          " " + format_number((*throughput)["cell_updates_per_second"].get<double>()) + " cells/s";
    }
  } else {
    text = status == "failed" ? "FAILED" : status;
    if (result.contains("reason") && result["reason"].is_string()) {
      text += ": " + result["reason"].get<std::string>();
    }
  }
  if (wall_s) text += " (" + format_number(*wall_s, 2) + " s)";
  return text;
}

/// The configurations of the sweeps of experiments matching --impl, in sweep order.
std::vector<Configuration> selected_configurations(const BenchOptions& options,
                                                   const Catalog& catalog) {
  std::vector<Configuration> configurations = expand(select_runs(options.sweeps, catalog), catalog);
  std::erase_if(configurations, [&](const Configuration& c) {
    return !glob_match(options.impl, c.experiment->name);
  });
  if (configurations.empty()) {
    throw Error("no configuration of the sweep is of an experiment matching --impl " +
                quote(options.impl, '\''));
  }
  check_patterns(configurations);
  return configurations;
}

/// What a run does with each configuration, decided before anything runs or is written.
struct Plan {
  std::vector<std::string> experiments;      ///< in sweep order, each once
  std::map<std::string, std::string> hashes; ///< experiment → binary_hash
  std::set<std::string> ids;                 ///< the configurations' config_id
  /// Results of an earlier run that still stand, under this sweep's ties.
  std::vector<std::optional<nlohmann::json>> kept;
  std::size_t kept_count = 0;
  /// Earlier measurements that do not stand and run now, and the experiments among them
  /// whose binary changed since: the first line says so, so that a rebuild that changed them
  /// is seen at once.
  std::size_t again_count = 0;
  std::set<std::string> rebuilt;
  /// The folder's results of configurations this run does not include, kept as they are.
  std::size_t outside_count = 0;
  /// What runs now, and how long the others' earlier runs took, for the estimates.
  std::vector<bool> to_run;
  std::vector<std::optional<double>> earlier_s;
};

/// The plan of `configurations` in `folder`: what an earlier run recorded there that stands.
Plan make_plan(const std::vector<Configuration>& configurations, const ResultsFolder& folder) {
  Plan plan;
  for (const auto& c : configurations) {
    plan.ids.insert(c.config_id);
    if (!plan.hashes.contains(c.experiment->name)) {
      plan.experiments.push_back(c.experiment->name);
      plan.hashes[c.experiment->name] = binary_hash(c.experiment->measured_files());
    }
  }
  plan.outside_count = folder.count_outside(plan.ids);
  plan.kept.resize(configurations.size());
  plan.to_run.resize(configurations.size());
  plan.earlier_s.resize(configurations.size());
  for (std::size_t i = 0; i < configurations.size(); ++i) {
    const Configuration& c = configurations[i];
    const std::string& hash = plan.hashes.at(c.experiment->name);
    auto previous = folder.previous(c.experiment->name, c.config_id);
    if (previous && still_valid(*previous, c, hash)) {
      (*previous).erase("tag"); // the format before ties
      (*previous)["ties"] = c.ties_json();
      plan.kept[i] = std::move(previous);
      ++plan.kept_count;
      continue;
    }
    plan.to_run[i] = c.experiment->available;
    if (plan.to_run[i] && previous && string_at(*previous, "status") != "unavailable") {
      ++plan.again_count;
      if (string_at(*previous, "binary_hash") != hash) plan.rebuilt.insert(c.experiment->name);
    }
    if (previous && previous->contains("wall_s") && (*previous)["wall_s"].is_number()) {
      plan.earlier_s[i] = (*previous)["wall_s"].get<double>();
    }
  }
  return plan;
}

/// "; 3 results of configurations outside this run kept in the folder as they were", or "".
std::string outside_text(const Plan& plan) {
  if (plan.outside_count == 0) return {};
  return "; " + std::to_string(plan.outside_count) + " result" +
         (plan.outside_count == 1 ? "" : "s") +
         " of configurations outside this run kept in the folder as they were";
}

/// The configurations, with the cells each fills and what an earlier run did, and the last
/// line; nothing runs or is written.
void print_dry_run(const std::vector<Configuration>& configurations, const Plan& plan,
                   const std::vector<std::string>& gpus, const fs::path& out) {
  const std::size_t total = configurations.size();
  for (std::size_t i = 0; i < total; ++i) {
    const Configuration& c = configurations[i];
    std::cout << "[" << i + 1 << "/" << total << "] " << c.label();
    // The cells it would fill, to check a sweep's ties before spending device time.
    for (std::size_t t = 0; t < c.ties.size(); ++t) {
      std::cout << (t == 0 ? " → " : "; ") << c.ties[t].table << " / " << c.ties[t].row << " / "
                << c.ties[t].column;
    }
    if (plan.kept[i]) std::cout << " … done earlier: " << progress_outcome(*plan.kept[i], {});
    if (!c.experiment->available) std::cout << " … unavailable: " << c.experiment->reason;
    if (!gpus.empty() && plan.to_run[i] && !runs_beside_others(*c.experiment)) {
      std::cout << " … alone";
    }
    std::cout << "\n";
  }
  std::cout << "lifebench: dry run: " << total << " configurations (" << plan.kept_count
            << " done earlier) would go to " << out.string() << outside_text(plan)
            << "; nothing run or written" << std::endl;
}

/// The run's first line: what it keeps of the folder, what it measures again and why.
std::string first_line(const Plan& plan, const fs::path& out) {
  std::string line = "lifebench: " + std::to_string(plan.kept.size()) + " configurations";
  if (plan.kept_count > 0) line += ", " + std::to_string(plan.kept_count) + " done earlier";
  if (plan.again_count > 0) {
    line += ", " + std::to_string(plan.again_count) + " to measure again";
    if (!plan.rebuilt.empty()) {
      std::vector<std::string> changed = plan.experiments; // in sweep order
      std::erase_if(changed, [&](const std::string& name) { return !plan.rebuilt.contains(name); });
      line += " (the binaries of " + some_of(changed) + " changed)";
    }
  }
  return line + outside_text(plan) + "; results in " + out.string();
}

} // namespace

int bench_command(const GlobalOptions& global, const BenchOptions& options) {
  // Everything is read and checked before anything runs or is written.
  const auto folders = experiment_folders(global.experiment_folders);
  const Catalog catalog = discover(folders);
  if (interrupt_signal() != 0) return kExitInterrupted;
  catalog.warn_broken();
  const std::vector<Configuration> configurations = selected_configurations(options, catalog);
  const std::vector<std::string> gpus = parallel_gpu_ids(options.parallel_gpus);
  const fs::path out =
      options.out ? fs::path(*options.out) : fs::path("results") / utc_now_compact();
  ResultsFolder folder(out, options.resume, !options.dry_run);
  const nlohmann::json machine = machine_environment(options.machine);
  const nlohmann::json build = build_provenance();
  if (options.resume && fs::exists(out / kManifestFile)) {
    check_same_machine_and_source(out, read_json_object(out / kManifestFile), machine, build);
  }
  const Plan plan = make_plan(configurations, folder);
  const std::vector<std::string>& experiments = plan.experiments;
  const std::map<std::string, std::string>& hashes = plan.hashes;
  const std::vector<std::optional<nlohmann::json>>& kept = plan.kept;
  const std::vector<bool>& to_run = plan.to_run;
  const std::size_t total = configurations.size();
  // Whether configuration i runs on one of the GPUs beside others (--parallel-gpus).
  const auto shares_gpus = [&](std::size_t i) {
    return !gpus.empty() && to_run[i] && runs_beside_others(*configurations[i].experiment);
  };
  if (options.dry_run) {
    print_dry_run(configurations, plan, gpus, out);
    return 0;
  }

  nlohmann::json manifest_experiments = nlohmann::json::object();
  for (const auto& name : experiments) {
    nlohmann::json summary = catalog.find(name)->summary();
    summary["binary_hash"] = hashes.at(name);
    manifest_experiments[name] = summary;
  }
  nlohmann::json manifest = {{"schema", 1},
                             {"run_id", fs::absolute(out).lexically_normal().filename().string()},
                             {"started", utc_now_iso()},
                             {"sweeps", options.sweeps},
                             {"impl", options.impl},
                             {"time_limit_s", options.time_limit_s
                                                  ? nlohmann::json(*options.time_limit_s)
                                                  : nlohmann::json(nullptr)},
                             {"parallel_gpus", options.parallel_gpus},
                             {"command", options.command_line},
                             {"machine", machine},
                             {"build", build},
                             {"host", host_environment()},
                             {"load", load_at_start()},
                             {"experiments", manifest_experiments}};
  // Kept results are recorded before anything is written, so that no file is
  // ever rewritten without them.
  folder.start(manifest, experiments, total, plan.ids);
  for (std::size_t i = 0; i < total; ++i) {
    if (kept[i]) folder.record(i, configurations[i].experiment->name, *kept[i], false);
  }
  folder.write_all();
  std::vector<double> shares(total, 1.0);
  for (std::size_t i = 0; i < total; ++i) {
    if (shares_gpus(i)) shares[i] = 1.0 / static_cast<double>(gpus.size());
  }
  SweepProgress progress(to_run, plan.earlier_s, shares);
  std::cout << first_line(plan, out);
  if (const std::string left = progress.left(); !left.empty()) {
    std::cout << "; " << left << " by the earlier run's times";
  }
  if (!gpus.empty()) {
    std::cout << "; one-GPU configurations " << gpus.size() << " at once, on GPUs "
              << join(gpus, ", ");
  }
  std::cout << std::endl;

  // The experiments' --json-out files: a process killed while writing leaves its
  // temporary there, never in the results folder.
  const ScratchFolder scratch("lifebench-bench");
  std::mutex mutex; // standard output, the progress and the results folder
  // Runs configuration i (on `gpu` beside others, when given) and records it; says whether
  // it was interrupted.
  const auto run_and_record = [&](std::size_t i, const std::optional<std::string>& gpu) {
    const Configuration& c = configurations[i];
    const std::string label = c.label() + (gpu ? " on GPU " + *gpu : std::string());
    // Alone, the line starts when it does; beside others, when it ends.
    if (!gpu) std::cout << progress.position(i) << label << " … " << std::flush;
    const double limit = options.time_limit_s.value_or(c.time_limit_s);
    try {
      auto [result, wall] =
          run_configuration(c, limit, scratch.path() / (std::to_string(i) + ".json"), gpu);
      result["config_id"] = c.config_id;
      result["ties"] = c.ties_json();
      result["binary_hash"] = hashes.at(c.experiment->name);
      // The pattern as the sweep names it, not where this machine keeps it.
      if (c.pattern && result.contains("pattern")) result["pattern"]["path"] = *c.pattern;
      if (gpu && result.contains("device") && result["device"].is_object()) {
        result["device"]["cuda_visible_devices"] = *gpu;
      }
      const std::scoped_lock lock(mutex);
      if (gpu) std::cout << progress.position(i) << label << " … ";
      std::cout << progress_outcome(result, wall);
      if (wall) {
        result["wall_s"] = *wall;
        progress.measured(i, *wall);
        if (const std::string left = progress.left(); !left.empty()) {
          std::cout << "; " << left;
        }
      }
      std::cout << std::endl;
      folder.record(i, c.experiment->name, std::move(result));
      return false;
    } catch (const Interrupted&) {
      const std::scoped_lock lock(mutex);
      if (gpu) std::cout << progress.position(i) << label << " … ";
      std::cout << "interrupted" << std::endl;
      return true;
    }
  };
  bool interrupted = false;
  for (std::size_t i = 0; i < total && !interrupted;) {
    if (interrupt_signal() != 0) {
      interrupted = true;
    } else if (!kept[i] && !shares_gpus(i)) {
      interrupted = run_and_record(i++, std::nullopt);
    } else {
      // The configurations from here that may share the GPUs (those done earlier said now).
      std::vector<std::size_t> batch;
      for (; i < total && (kept[i] || shares_gpus(i)); ++i) {
        if (!kept[i]) {
          batch.push_back(i);
          continue;
        }
        std::cout << progress.position(i) << configurations[i].label()
                  << " … done earlier: " << progress_outcome(*kept[i], std::nullopt) << std::endl;
      }
      interrupted = run_beside_each_other(batch, gpus, run_and_record);
    }
  }

  const nlohmann::json& counts = folder.counts();
  if (interrupted) {
    std::cerr << "lifebench: interrupted: " << counts["done"] << " of " << total
              << " configurations recorded in " << out.string() << "; continue with --resume --out "
              << out.string() << "\n";
    return kExitInterrupted;
  }
  folder.finish();
  std::cout << "lifebench: " << total << " configurations in "
            << format_duration(progress.elapsed_s()) << ": " << counts["ok"] << " ok, "
            << counts["failed"] << " failed, " << counts["unsupported"] << " unsupported, "
            << counts["unavailable"] << " unavailable; results in " << out.string() << std::endl;
  return counts["failed"].get<std::size_t>() > 0 ? kExitFailed : 0;
}

} // namespace lifebench::driver
