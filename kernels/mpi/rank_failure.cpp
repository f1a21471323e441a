#include "mpi/rank_failure.hpp"

#include <cstring>
#include <regex>
#include <sstream>

namespace lifebench::mpi {
namespace {

/// mpirun's output with every run of white space one space: its notes' lines are wrapped
/// anywhere (Open MPI 4 and 5 word them alike).
std::string unwrapped(std::string_view output) {
  static const std::regex space(R"(\s+)");
  return std::regex_replace(std::string(output), space, " ");
}

} // namespace

std::string rank_failure(std::string_view output, const std::string& mpirun_end) {
  // A rank's own line: what it found wrong, before it aborted the others.
  constexpr std::string_view kPrefix = "lifebench: error: ";
  if (const auto at = output.find(std::string(kPrefix) + "rank "); at != std::string_view::npos) {
    const auto start = at + kPrefix.size();
    return std::string(output.substr(start, output.find('\n', start) - start));
  }
  // mpirun's notes.
  const std::string text = unwrapped(output);
  std::smatch match;
  if (std::regex_search(text, match,
                        std::regex(R"(process rank (\d+) with PID \d+ on node \S+ exited on )"
                                   R"(signal (\d+))"))) {
    const int signal = std::stoi(match[2]);
    return "rank " + match[1].str() + ": killed by signal " + match[2].str() + " (" +
           strsignal(signal) + ")";
  }
  if (std::regex_search(text, match,
                        std::regex(R"(Process name: \[(?:\[\d+,\d+\]|[^\[\],]+),(\d+)\] )"
                                   R"(Exit code: (\d+))"))) {
    return "rank " + match[1].str() + ": exited with code " + match[2].str();
  }
  // Else a code that mpirun passed on from a rank killed by a signal,
  if (std::regex_match(mpirun_end, match, std::regex(R"(mpirun exited with code (\d+))"))) {
    if (const int code = std::stoi(match[1]); code > 128 && code < 128 + 65) {
      return "a rank was killed by signal " + std::to_string(code - 128) + " (" +
             strsignal(code - 128) + ") (mpirun exited with code " + match[1].str() +
             " and named no rank)";
    }
  }
  // else how mpirun ended, with its last line that says something.
  std::string last;
  std::istringstream lines{std::string(output)};
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" -\t\r") != std::string::npos) last = line;
  }
  return last.empty() ? mpirun_end : mpirun_end + ": " + last;
}

bool mpirun_is_aborting(std::string_view output) {
  // Open MPI 4's and 5's notes.
  static const std::regex notes(R"(noticed that process rank|returned a non-zero exit code|)"
                                R"(exited with non-zero status|MPI_ABORT was invoked)");
  return std::regex_search(unwrapped(output), notes);
}

} // namespace lifebench::mpi
