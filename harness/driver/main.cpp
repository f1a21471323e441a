// The lifebench driver: list, run, verify and bench the experiment executables; compare runs.
#include "commands.hpp"
#include "lifebench/build_info.hpp"
#include "lifebench/cli.hpp"
#include "lifebench/environment.hpp"
#include "lifebench/error.hpp"
#include "process.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <iostream>

namespace lifebench::driver {
namespace {

/// `lifebench run` without --impl: its help when asked for, else a usage error.
int run_without_impl(const CLI::App& run) {
  const auto rest = run.remaining();
  if (std::find_if(rest.begin(), rest.end(), [](const std::string& arg) {
        return arg == "--help" || arg == "-h";
      }) != rest.end()) {
    std::cout << run.help();
    return 0;
  }
  std::cerr << "lifebench: error: run needs --impl NAME (lifebench list names the "
               "experiments; lifebench run --help)\n";
  return kExitUsage;
}

int main_with_errors(int argc, char** argv) {
  CLI::App app{"lifebench: build, verify and benchmark Game of Life implementations"};
  app.set_version_flag("--version", std::string(build_info::version));
  app.require_subcommand(1);

  GlobalOptions global;
  const auto add_experiments_option = [&](CLI::App* command) {
    command
        ->add_option("--experiments", global.experiment_folders,
                     "Also search this folder for lifebench-exp-* executables (repeatable)")
        ->allow_extra_args(false);
  };
  add_experiments_option(&app);

  auto* list = app.add_subcommand("list", "List the experiments, their backend and availability");
  bool list_json = false;
  list->add_flag("--json", list_json,
                 "Print the experiments as JSON (name, family, backend, availability, axes)");
  add_experiments_option(list);

  auto* run = app.add_subcommand(
      "run", "Run one experiment on a pattern or soup; other arguments go to the experiment");
  std::string run_impl;
  run->add_option("--impl", run_impl, "Experiment name (lifebench list names them)");
  add_experiments_option(run);
  run->allow_extras();
  // `lifebench run --impl x --help` is the experiment's help, not ours.
  run->set_help_flag();
  run->footer("Its forms (the experiment's options: lifebench run --impl NAME --help):\n"
              "  lifebench run --impl NAME --input FILE --generations N --output FILE "
              "[--param k=v]...\n"
              "  lifebench run --impl NAME --soup WxH,density,seed [--rule RULE] "
              "--generations N --output FILE\n"
              "It prints the run's time and rate on standard error.");

  auto* verify = app.add_subcommand("verify", "Check experiments against the reference");
  VerifyOptions verify_options;
  verify->add_option("--impl", verify_options.impl, "Experiments to verify (a glob)")
      ->capture_default_str();
  verify
      ->add_option("--time-limit", verify_options.time_limit_s,
                   "Seconds one experiment's verification may take")
      ->capture_default_str()
      ->check(positive_seconds());
  add_experiments_option(verify);

  auto* compare = app.add_subcommand(
      "compare", "Compare two results folders: per configuration the speedup of the median time "
                 "with its interval, and a verdict against the noise");
  CompareOptions compare_options;
  add_compare_options(*compare, compare_options);

  auto* bench = app.add_subcommand("bench", "Run sweeps and write a results folder");
  BenchOptions bench_options;
  add_bench_options(*bench, bench_options);
  add_experiments_option(bench);

  // CLI11 would call a mistyped command "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-' &&
      app.get_subcommands([&](const CLI::App* command) { return command->get_name() == argv[1]; })
          .empty()) {
    std::cerr << "lifebench: error: unknown command '" << argv[1]
              << "' (commands: list, run, verify, bench, compare)\n";
    return kExitUsage;
  }
  if (const auto status = parse_command_line(app, argc, argv, "lifebench --help")) return *status;

  install_interrupt_handlers();
  if (list->parsed()) return list_command(global, list_json);
  if (run->parsed() && run_impl.empty()) return run_without_impl(*run);
  if (run->parsed()) return run_command(global, run_impl, run->remaining());
  if (compare->parsed()) return compare_command(compare_options);
  if (verify->parsed()) return verify_command(global, verify_options);
  for (int i = 0; i < argc; ++i)
    bench_options.command_line.emplace_back(argv[i]);
  return bench_command(global, bench_options);
}

} // namespace
} // namespace lifebench::driver

int main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which the writers
  // report and clean up after, instead of the signal ending the process midway; the
  // experiments it starts inherit this.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    return lifebench::driver::main_with_errors(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "lifebench: error: " << e.what() << "\n";
    return lifebench::kExitFailed;
  }
}
