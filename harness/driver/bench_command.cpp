// lifebench bench: sweeps → configurations → one experiment process each → results folder.
// The plan (what runs, what an earlier run left that stands) is bench_plan's; running it is
// bench_schedule's; this file reads the options, writes the manifest and says how it went.
#include "bench_plan.hpp"
#include "bench_schedule.hpp"
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/cli.hpp"
#include "lifebench/environment.hpp"
#include "lifebench/error.hpp"
#include "machine_load.hpp"
#include "process.hpp"
#include "provenance.hpp"
#include "results.hpp"
#include "sweep_progress.hpp"
#include "text.hpp"

#include <filesystem>
#include <iostream>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// The manifest of a run (harness/results.schema.json) before its first result.
nlohmann::json manifest_of(const BenchOptions& options, const fs::path& out, const Plan& plan,
                           const Catalog& catalog, const nlohmann::json& machine,
                           const nlohmann::json& build) {
  nlohmann::json experiments = nlohmann::json::object();
  for (const auto& name : plan.experiments) {
    nlohmann::json summary = catalog.find(name)->summary();
    summary["binary_hash"] = plan.hashes.at(name);
    experiments[name] = summary;
  }
  return {{"schema", kResultsSchema},
          {"run_id", fs::absolute(out).lexically_normal().filename().string()},
          {"started", utc_now_iso()},
          {"sweeps", options.sweeps},
          {"impl", options.impl},
          {"time_limit_s",
           options.time_limit_s ? nlohmann::json(*options.time_limit_s) : nlohmann::json(nullptr)},
          {"parallel_gpus", options.parallel_gpus},
          {"command", options.command_line},
          {"machine", machine},
          {"build", build},
          {"host", host_environment()},
          {"load", load_at_start()},
          {"experiments", experiments}};
}

/// The progress of a run: the configurations it measures, each weighted by its share of the
/// time when it runs beside others.
SweepProgress progress_of(const Schedule& schedule) {
  std::vector<double> shares(schedule.configurations.size(), 1.0);
  std::vector<std::string> experiments;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (schedule.shares_gpus(i)) shares[i] = 1.0 / static_cast<double>(schedule.gpus.size());
    experiments.push_back(schedule.configurations[i].experiment);
  }
  return {schedule.plan.to_run, schedule.plan.earlier_s, shares, experiments};
}

/// The first line, with the time left by the earlier run's times and the GPUs shared.
void say_start(const Schedule& schedule, const SweepProgress& progress, const fs::path& out) {
  std::cout << first_line(schedule.plan, out);
  if (const std::string left = progress.left(); !left.empty()) {
    std::cout << "; " << left << " by the earlier run's times";
  }
  if (!schedule.gpus.empty()) {
    std::cout << "; one-GPU configurations " << schedule.gpus.size() << " at once, on GPUs "
              << join(schedule.gpus, ", ");
  }
  std::cout << std::endl;
}

/// The last line, and the exit status: failed when a configuration failed.
int say_end(ResultsFolder& folder, std::size_t total, bool interrupted,
            const SweepProgress& progress) {
  const nlohmann::json& counts = folder.counts();
  const std::string out = folder.dir().string();
  if (interrupted) {
    std::cerr << "lifebench: interrupted: " << counts["done"] << " of " << total
              << " configurations recorded in " << out << "; continue with --resume --out " << out
              << "\n";
    return kExitInterrupted;
  }
  folder.finish();
  std::cout << "lifebench: " << total << " configurations in "
            << format_duration(progress.elapsed_s()) << ": " << counts["ok"] << " ok, "
            << counts["failed"] << " failed, " << counts["unsupported"] << " unsupported, "
            << counts["unavailable"] << " unavailable; results in " << out << std::endl;
  return counts["failed"].get<std::size_t>() > 0 ? kExitFailed : 0;
}

} // namespace

void add_bench_options(CLI::App& command, BenchOptions& options) {
  command
      .add_option("--sweep", options.sweeps,
                  "A named sweep of the experiments, or a sweep file (repeatable)")
      ->allow_extra_args(false)
      ->required();
  command.add_option("--impl", options.impl, "Only experiments matching this glob")
      ->capture_default_str();
  command.add_option("--out", options.out, "Results folder (default: results/<UTC time> here)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return text.empty() ? std::string("expected a folder, not an empty name")
                                : std::string();
          },
          "DIR"));
  command.add_flag("--resume", options.resume,
                   "Keep the results already in --out that are still valid; run the rest");
  command
      .add_option("--time-limit", options.time_limit_s,
                  "Seconds one configuration may take (overrides the sweep's time_limit_s)")
      ->check(positive_seconds());
  command.add_flag("--dry-run", options.dry_run,
                   "Check the sweeps and list the configurations; run and write nothing");
  command
      .add_option("--parallel-gpus", options.parallel_gpus,
                  "Run up to N one-GPU CUDA configurations at once, each on its own GPU (the "
                  "first N of CUDA_VISIBLE_DEVICES, else GPUs 0 ... N-1); the others run alone")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  command.add_flag("--show-stderr", options.show_stderr,
                   "Copy each experiment's standard error to ours as it comes (what a long "
                   "configuration is doing, such as cuda-outofcore's passes); a configuration's "
                   "line then comes when it ends");
  command
      .add_option("--machine", options.machine,
                  "The machine's name in the results (default: one made of its GPUs, CPU and "
                  "cores, such as h100-80gb-hbm3-xeon-16c)")
      ->envname("LIFEBENCH_MACHINE")
      ->check(CLI::Validator(
          [](const std::string& name) -> std::string {
            if (valid_machine_name(name)) return {};
            return "expected 1 to " + std::to_string(kMaxMachineName) +
                   " letters, digits, '-', '_' or '.', the first a letter or digit, not \"" + name +
                   "\"";
          },
          "NAME"));
}

int bench_command(const GlobalOptions& global, const BenchOptions& options) {
  // Everything is read and checked before anything runs or is written.
  const Catalog catalog = discover(experiment_folders(global.experiment_folders));
  if (interrupt_signal() != 0) return kExitInterrupted;
  catalog.warn_broken();
  const std::vector<SweepConfiguration> configurations = selected_configurations(options, catalog);
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
  if (options.dry_run) {
    print_dry_run(configurations, plan, gpus, out);
    return 0;
  }

  // Kept results are recorded before anything is written, so that no file is ever rewritten
  // without them.
  folder.start(manifest_of(options, out, plan, catalog, machine, build), plan.experiments,
               configurations.size(), plan.ids);
  for (std::size_t i = 0; i < configurations.size(); ++i) {
    if (plan.kept[i]) folder.record(i, configurations[i].experiment, *plan.kept[i], false);
  }
  folder.write_all();
  const Schedule schedule{configurations, plan, gpus, options.time_limit_s, options.show_stderr};
  SweepProgress progress = progress_of(schedule);
  say_start(schedule, progress, out);
  const bool interrupted = run_schedule(schedule, folder, progress);
  return say_end(folder, configurations.size(), interrupted, progress);
}

} // namespace lifebench::driver
