// lifebench verify: each matching experiment's conformance matrix, in its own process.
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/error.hpp"
#include "process.hpp"
#include "text.hpp"

#include <algorithm>
#include <iostream>

namespace lifebench::driver {
namespace {

struct Verdict {
  std::string name;
  std::string status; // passed | FAILED | unavailable
  std::string reason;
};

} // namespace

int verify_command(const GlobalOptions& global, const VerifyOptions& options) {
  const auto folders = experiment_folders(global.experiment_folders);
  const Catalog catalog =
      discover(folders, [&](const std::string& name) { return glob_match(options.impl, name); });
  if (interrupt_signal() != 0) return kExitInterrupted;
  if (catalog.experiments.empty() && catalog.broken.empty()) {
    throw Error("no experiment matches " + quote(options.impl, '\'') +
                " (known: " + join(catalog.names) + ")");
  }
  std::vector<Verdict> verdicts;
  for (const auto& e : catalog.broken)
    verdicts.push_back({e.name, "FAILED", e.reason});
  for (const auto& e : catalog.experiments) {
    if (!e.available) {
      verdicts.push_back({e.name, "unavailable", e.reason});
      continue;
    }
    std::cout << "== " << e.name << " verify" << std::endl;
    ProcessRequest request;
    request.argv = {e.binary.string(), "verify"};
    request.time_limit_s = options.time_limit_s;
    request.echo_stdout = true;
    request.echo_stderr = true;
    const ProcessOutcome outcome = run_process(request);
    if (outcome.end == ProcessOutcome::End::interrupted) {
      std::cerr << "lifebench: interrupted during " << e.name << " verify\n";
      return kExitInterrupted;
    }
    if (outcome.succeeded()) {
      verdicts.push_back({e.name, "passed", ""});
    } else if (outcome.end == ProcessOutcome::End::exited &&
               outcome.exit_code == kExitUnavailable) {
      verdicts.push_back({e.name, "unavailable", last_line(outcome.stderr_tail)});
    } else {
      verdicts.push_back({e.name, "FAILED", outcome.failure(options.time_limit_s)});
    }
  }

  std::sort(verdicts.begin(), verdicts.end(),
            [](const Verdict& a, const Verdict& b) { return a.name < b.name; });
  int passed = 0;
  int failed = 0;
  int unavailable = 0;
  for (const auto& v : verdicts) {
    (v.status == "passed" ? passed : v.status == "FAILED" ? failed : unavailable) += 1;
  }
  std::cout << "\nverify: " << passed << " passed, " << failed << " failed, " << unavailable
            << " unavailable\n";
  for (const auto& v : verdicts) {
    std::cout << "  " << v.status << std::string(13 - v.status.size(), ' ') << v.name
              << (v.reason.empty() ? "" : ": " + v.reason) << "\n";
  }
  std::cout.flush();
  return failed > 0 ? kExitFailed : 0;
}

} // namespace lifebench::driver
