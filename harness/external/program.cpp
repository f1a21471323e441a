#include "program.hpp"

#include "lifebench/error.hpp"

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <regex>
#include <unistd.h>

namespace lifebench::external {
namespace {

namespace fs = std::filesystem;

constexpr double kVersionTimeLimitS = 30;

fs::path locate(const Description& d) {
  if (!d.path_variable.empty()) {
    const char* given = std::getenv(d.path_variable.c_str());
    if (given != nullptr && *given != 0) {
      if (!driver::executable_file(given)) {
        throw Error(d.path_variable + " names " + given + ", which is not an executable file");
      }
      return fs::absolute(given).lexically_normal();
    }
  }
  const std::string hint = d.install.empty() ? "" : " (" + d.install + ")";
  if (fs::path(d.program).is_absolute()) {
    if (!driver::executable_file(d.program))
      throw Error(d.program + " is not an executable file" + hint);
    return d.program;
  }
  if (auto found = driver::on_path(d.program)) return *found;
  throw Error(d.program + " is not on PATH" +
              (d.path_variable.empty() ? "" : " and " + d.path_variable + " is not set") + hint);
}

std::string version_of(const Description& d, const fs::path& program) {
  driver::ProcessRequest request;
  request.argv = {program.string()};
  request.argv.insert(request.argv.end(), d.version_args.begin(), d.version_args.end());
  request.time_limit_s = kVersionTimeLimitS;
  request.grace_s = 1;
  const driver::ProcessOutcome outcome = run_program(request);
  const std::string text = outcome.stdout_text + "\n" + outcome.stderr_tail;
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(d.version_pattern))) {
    std::string command = program.string();
    for (const auto& arg : d.version_args)
      command += " " + arg;
    throw Error(command + " printed nothing that matches program.version_pattern '" +
                d.version_pattern + "' of " + d.file.string());
  }
  return match.size() > 1 && match[1].matched ? match[1].str() : match[0].str();
}

constexpr std::array<int, 3> kInterrupts{SIGINT, SIGTERM, SIGHUP};

} // namespace

Program find_program(const Description& description) {
  Program program{locate(description), {}};
  if (!description.version_args.empty()) program.version = version_of(description, program.path);
  return program;
}

InterruptGuard::InterruptGuard() {
  for (std::size_t i = 0; i < kInterrupts.size(); ++i)
    ::sigaction(kInterrupts[i], nullptr, &saved_[i]);
  driver::install_interrupt_handlers();
}

InterruptGuard::~InterruptGuard() {
  for (std::size_t i = 0; i < kInterrupts.size(); ++i)
    ::sigaction(kInterrupts[i], &saved_[i], nullptr);
}

void throw_if_interrupted() {
  if (const int signal = driver::interrupt_signal()) {
    throw Error("interrupted by signal " + std::to_string(signal));
  }
}

driver::ProcessOutcome run_program(const driver::ProcessRequest& request) {
  const InterruptGuard guard;
  driver::ProcessOutcome outcome = driver::run_process(request);
  // An interrupted run's group is gone; the exception ends this process, its files
  // removed on the way out.
  throw_if_interrupted();
  return outcome;
}

} // namespace lifebench::external
