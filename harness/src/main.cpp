// main() of every experiment executable: describe, run, verify, bench.
#include "bench.hpp"
#include "checks.hpp"
#include "commands.hpp"
#include "conformance.hpp"
#include "lifebench/build_info.hpp"
#include "lifebench/child_in_progress.hpp"
#include "lifebench/cli.hpp"
#include "lifebench/configuration.hpp"
#include "lifebench/json_text.hpp"
#include "lifebench/params.hpp"
#include "lifebench/pattern.hpp"
#include "lifebench/state_io.hpp"
#include "verification.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <atomic>
#include <benchmark/benchmark.h>
#include <csignal>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <unistd.h>

namespace lifebench::harness {
namespace {

/// The pattern `bench --pattern` names, read and placed on the configuration's grid once, so
/// that a pattern that cannot start the run is refused before anything is made or timed.
std::shared_ptr<const PatternInput> bench_pattern(const Configuration& config) {
  if (!config.pattern) return nullptr;
  auto input =
      std::make_shared<PatternInput>(PatternInput{.pattern = read_pattern(config.pattern_file),
                                                  .path = *config.pattern,
                                                  .offset = config.offset});
  if (auto refusal = placement_refusal(input->pattern, config.problem, input->offset)) {
    throw Error(*config.pattern + ": " + *refusal);
  }
  return input;
}

/// Timings from an unoptimised build would be published as if they meant something.
void require_optimised_build() {
  const std::string type = build_info::build_type;
  if (type != "Release" && type != "RelWithDebInfo") {
    throw Error("benchmarks need an optimised build (Release or RelWithDebInfo), this one is '" +
                type + "': use a sweep preset");
  }
}

/// The line each signal we end on prints, made before any arrives: a handler may only write
/// it.
std::array<std::string, NSIG> g_signal_lines;

/// Taken by the first thread a signal ends the process in; another waits for the end.
std::atomic_flag g_ending = ATOMIC_FLAG_INIT;

/// Ends the process on a signal as on an error: its children are asked to end, the temporary
/// being written is removed (it may hold up to a whole universe), one line says why, and the
/// exit status is 128 + the signal's number, as a shell reports it. A bus error that is not a
/// mapped file's lost page (BUS_ADRERR: a fault of ours, or a signal sent) takes the default
/// action, a core dump included.
extern "C" void end_on_signal(int signal, siginfo_t* info, void* /*context*/) {
  if (signal == SIGBUS && info->si_code != BUS_ADRERR) {
    ::signal(SIGBUS, SIG_DFL);
    ::raise(SIGBUS); // delivered as the handler returns
    return;
  }
  if (g_ending.test_and_set()) {
    for (;;)
      ::pause();
  }
  end_children_in_progress();
  remove_temporaries_in_progress();
  const std::string& line = g_signal_lines[static_cast<std::size_t>(signal)];
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  ::_exit(128 + signal);
}

void end_on(int signal, const std::string& why) {
  const char* name = ::strsignal(signal);
  g_signal_lines[static_cast<std::size_t>(signal)] =
      "lifebench: error: " + why + " by signal " + std::to_string(signal) +
      (name != nullptr ? std::string(" (") + name + ")" : std::string()) + "\n";
  struct sigaction action {};
  action.sa_sigaction = end_on_signal;
  action.sa_flags = SA_SIGINFO;
  sigfillset(&action.sa_mask); // no other signal within the handler's thread
  ::sigaction(signal, &action, nullptr);
}

/// `run` ends cleanly when interrupted.
void end_cleanly_on_interrupts() {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP})
    end_on(signal, "interrupted");
}

int verify_command(const ExperimentInfo& info, const std::vector<std::string>& pairs,
                   const std::optional<std::string>& problem_text,
                   std::optional<std::uint64_t> generations, std::uint64_t seed,
                   const std::optional<std::string>& shard) {
  require_available(info);
  const auto given = parse_param_pairs(pairs);
  if (!problem_text) {
    const Shard part = shard ? parse_shard(*shard).value() : Shard{};
    return run_conformance(info, given, part, std::cout) ? 0 : 1;
  }

  const Params params = resolve_params(info.about.name, info.axes, given);
  const Problem problem = parse_problem(*problem_text);
  require_supported(info, problem, params);
  const std::uint64_t total = generations.value_or(verify_generations(info, params));
  const VerificationCase check{problem, total / 2, total - total / 2, seed,
                               soup_density(problem.rule.topology)};
  const VerificationOutcome outcome = verify_case(info, params, check);
  std::cout << (outcome.passed ? "pass " : "FAIL ") << problem.to_string() << " g" << total
            << (outcome.passed ? "" : ": " + outcome.detail) << "\n";
  return outcome.passed ? 0 : 1;
}

int main_with_errors(int argc, char** argv) {
  const ExperimentInfo& info = registered_experiment();
  CLI::App app{info.about.name + ": " + info.about.technique};
  app.require_subcommand(1);
  std::vector<std::string> pairs;

  app.add_subcommand("describe", "Print the experiment's description and availability as JSON");

  auto* run_cmd =
      app.add_subcommand("run", "Advance a pattern file or a soup and write the result");
  RunRequest run_request;
  run_cmd->add_option("--param", pairs, "Parameter name=value (repeatable)");
  auto* input = run_cmd->add_option(
      "--input", run_request.input,
      "Input file (.rle, .lif, .life, .mc, each also .gz; .lbu, .dat); a pattern with no "
      "bounded grid runs on Golly's unbounded plane");
  run_cmd->add_option("--soup", run_request.soup, "Random soup WxH[xD],density,seed")
      ->excludes(input);
  run_cmd->add_option("--rule", run_request.rule,
                      "Rule, with a bounded grid or not, e.g. B3/S23:T64,64 or HighLife; it "
                      "replaces the input's, with a warning where they differ");
  run_cmd->add_option("--generations", run_request.generations, "Generations")
      ->required()
      ->check(whole_number(0, kMaxGenerations));
  run_cmd->add_option("--output", run_request.output, "Output file (.rle, .lbu, .dat)")->required();
  run_cmd->add_flag("--resume", run_request.resume,
                    "Universe files (.lbu) streamed by an out-of-core experiment: go on from the "
                    "last whole generation a stopped run left in --output");

  auto* verify_cmd = app.add_subcommand(
      "verify", "Check against the reference: the conformance matrix, or one --problem");
  std::optional<std::string> verify_problem;
  std::optional<std::uint64_t> verify_generations_given;
  std::optional<std::string> verify_shard;
  std::uint64_t seed = 1;
  verify_cmd->add_option("--param", pairs, "Parameter name=value (repeatable; pins it)");
  auto* problem_option =
      verify_cmd->add_option("--problem", verify_problem, "Rule with bounded grid");
  verify_cmd
      ->add_option("--shard", verify_shard,
                   "K/N: the K-th of N interleaved parts of the matrix (tests run side by side)")
      ->excludes(problem_option)
      ->check(CLI::Validator(
          [](const std::string& text) {
            return parse_shard(text) ? std::string()
                                     : "expected K/N with 1 <= K <= N <= 64, not \"" + text + "\"";
          },
          "K/N"));
  // Without --problem the conformance matrix runs, which has its own generations and seeds.
  verify_cmd->add_option("--generations", verify_generations_given, "Generations")
      ->needs(problem_option)
      ->check(whole_number(0, kMaxGenerations));
  verify_cmd->add_option("--seed", seed, "Soup seed")
      ->needs(problem_option)
      ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()));

  auto* bench_cmd = app.add_subcommand("bench", "Verify, then time one configuration");
  const ConfigurationOptions bench_options(*bench_cmd);

  if (const auto status = parse_command_line(app, argc, argv, "--help")) return *status;

  if (app.got_subcommand("describe")) {
    describe(info, std::cout);
    return 0;
  }
  if (run_cmd->parsed()) {
    if (!run_request.input && !run_request.soup) throw Error("run needs --input or --soup");
    end_cleanly_on_interrupts();
    run(info, resolve_params(info.about.name, info.axes, parse_param_pairs(pairs)), run_request);
    return 0;
  }
  if (verify_cmd->parsed()) {
    return verify_command(info, pairs, verify_problem, verify_generations_given, seed,
                          verify_shard);
  }
  require_optimised_build();
  const Configuration configuration = bench_options.from_argv(info.about.name);
  const Params params = configuration.resolved_params(info.axes);
  const auto result = bench(info, params, configuration, bench_pattern(configuration));
  write_file_atomically(bench_options.json_out(),
                        [&](std::ostream& out) { out << json_text(result.to_json()); });
  return 0;
}

} // namespace
} // namespace lifebench::harness

int main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which the writers
  // report and clean up after, instead of the signal ending the process midway.
  std::signal(SIGXFSZ, SIG_IGN);
  // A universe streamed from a mapped file that another process cuts short faults the read of
  // the pages it lost.
  lifebench::harness::end_on(SIGBUS, "a file being read was cut short by another process, stopped");
  int benchmark_argc = 1;
  benchmark::Initialize(&benchmark_argc, argv);
  try {
    return lifebench::harness::main_with_errors(argc, argv);
  } catch (const lifebench::harness::Unavailable& e) {
    std::cerr << "lifebench: error: " << e.what() << "\n";
    return lifebench::kExitUnavailable;
  } catch (const std::exception& e) {
    std::cerr << "lifebench: error: " << e.what() << "\n";
    return lifebench::kExitFailed;
  }
}
