// main() of every experiment executable: describe, run, verify, bench.
#include "bench.hpp"
#include "checks.hpp"
#include "commands.hpp"
#include "conformance.hpp"
#include "lifebench/build_info.hpp"
#include "lifebench/cli.hpp"
#include "lifebench/params.hpp"
#include "lifebench/pattern.hpp"
#include "lifebench/state_io.hpp"
#include "verification.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <benchmark/benchmark.h>
#include <csignal>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

namespace lifebench::harness {
namespace {

/// The pattern `bench --pattern` names, read and placed on `problem`'s grid once, so that a
/// pattern that cannot start the run is refused before anything is made or timed.
std::shared_ptr<const PatternInput> bench_pattern(const std::optional<std::string>& path,
                                                  const std::optional<std::string>& offset,
                                                  const Problem& problem) {
  if (!path) return nullptr;
  auto input = std::make_shared<PatternInput>(
      PatternInput{.pattern = read_pattern(*path),
                   .path = *path,
                   .offset = offset ? std::optional(parse_offset(*offset)) : std::nullopt});
  if (auto refusal = placement_refusal(input->pattern, problem, input->offset)) {
    throw Error(*path + ": " + *refusal);
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

/// The line each interrupting signal prints, made before any arrives: a handler may only
/// write it.
std::array<std::string, NSIG> g_interrupted_lines;

/// Ends `run` on an interrupting signal as on an error: the temporary being written is removed
/// (it may hold up to a whole universe), one line says why, and the exit status is 128 + the
/// signal's number, as a shell reports it.
extern "C" void end_run_on_interrupt(int signal) {
  remove_temporaries_in_progress();
  const std::string& line = g_interrupted_lines[static_cast<std::size_t>(signal)];
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  ::_exit(128 + signal);
}

void end_cleanly_on_interrupts() {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    const char* name = ::strsignal(signal);
    g_interrupted_lines[static_cast<std::size_t>(signal)] =
        "lifebench: error: interrupted by signal " + std::to_string(signal) +
        (name != nullptr ? std::string(" (") + name + ")" : std::string()) + "\n";
    struct sigaction action {};
    action.sa_handler = end_run_on_interrupt;
    sigfillset(&action.sa_mask); // one handler at a time
    ::sigaction(signal, &action, nullptr);
  }
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

  const Params params = resolve_params(info.name, info.axes, given);
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
  CLI::App app{info.name + ": " + info.technique};
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
  std::string bench_problem;
  std::string json_out;
  BenchRequest bench_request;
  bench_cmd->add_option("--param", pairs, "Parameter name=value (repeatable)");
  bench_cmd->add_option("--problem", bench_problem, "Rule with bounded grid")->required();
  bench_cmd->add_option("--generations", bench_request.generations, "Generations per repetition")
      ->required()
      ->check(whole_number(1, kMaxGenerations));
  // At most a million, as a sweep file's repetitions and warmup.
  statistics::StoppingRule& stopping = bench_request.stopping;
  bench_cmd
      ->add_option("--repetitions", stopping.min_repetitions,
                   "Timed repetitions at least (more until the median's interval is narrow "
                   "enough)")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000));
  bench_cmd->add_option("--max-repetitions", stopping.max_repetitions, "Timed repetitions at most")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000));
  bench_cmd
      ->add_option("--target-rel-ci", stopping.target_rel_ci,
                   "Stop when the median's 95 % interval's half-width is within this fraction "
                   "of it")
      ->capture_default_str()
      ->check(open_fraction());
  bench_cmd
      ->add_option("--timing-budget-s", stopping.budget_s,
                   "Begin no repetition past the minimum that would end after this many seconds "
                   "of timing")
      ->capture_default_str()
      ->check(positive_seconds());
  bench_cmd->add_option("--warmup", bench_request.warmup, "Untimed repetitions first")
      ->check(whole_number(0, 1'000'000));
  bench_cmd
      ->add_option("--density", bench_request.density,
                   "Initial soup density in (0, 1] (default: the family's)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            double density = 0;
            std::istringstream in(text);
            in >> density;
            return in && in.eof() && density > 0 && density <= 1
                       ? std::string()
                       : "must be a number in (0, 1], not " + text;
          },
          "DENSITY in (0, 1]"));
  std::optional<std::string> bench_pattern_path;
  std::optional<std::string> bench_offset;
  auto* pattern_option =
      bench_cmd
          ->add_option("--pattern", bench_pattern_path,
                       "Pattern file that starts both runs in place of soups, centred on the grid")
          ->excludes("--density");
  bench_cmd
      ->add_option("--offset", bench_offset, "X,Y: the pattern's top-left cell instead of centred")
      ->needs(pattern_option);
  bench_cmd->add_option("--json-out", json_out, "Result file")->required();

  if (const auto status = parse_command_line(app, argc, argv, "--help")) return *status;

  if (app.got_subcommand("describe")) {
    describe(info, std::cout);
    return 0;
  }
  if (run_cmd->parsed()) {
    if (!run_request.input && !run_request.soup) throw Error("run needs --input or --soup");
    end_cleanly_on_interrupts();
    run(info, resolve_params(info.name, info.axes, parse_param_pairs(pairs)), run_request);
    return 0;
  }
  if (verify_cmd->parsed()) {
    return verify_command(info, pairs, verify_problem, verify_generations_given, seed,
                          verify_shard);
  }
  require_optimised_build();
  if (stopping.max_repetitions < stopping.min_repetitions) {
    throw Error("--max-repetitions " + std::to_string(stopping.max_repetitions) +
                " is below --repetitions " + std::to_string(stopping.min_repetitions));
  }
  const Params params = resolve_params(info.name, info.axes, parse_param_pairs(pairs));
  bench_request.problem = parse_problem(bench_problem);
  bench_request.pattern = bench_pattern(bench_pattern_path, bench_offset, bench_request.problem);
  const auto result = bench(info, params, bench_request);
  write_file_atomically(json_out,
                        [&](std::ostream& out) { out << result.to_json().dump(2) << "\n"; });
  return 0;
}

} // namespace
} // namespace lifebench::harness

int main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which the writers
  // report and clean up after, instead of the signal ending the process midway.
  std::signal(SIGXFSZ, SIG_IGN);
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
