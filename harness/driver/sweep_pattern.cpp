#include "sweep_pattern.hpp"

#include "discovery.hpp"
#include "lifebench/error.hpp"
#include "lifebench/pattern.hpp"
#include "process.hpp"

#include <cstdlib>
#include <map>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kGollyPrefix = "golly:";

/// The bgolly the external experiments run: LIFEBENCH_BGOLLY, else the first on PATH.
std::optional<fs::path> bgolly() {
  if (const char* given = std::getenv("LIFEBENCH_BGOLLY"); given != nullptr && *given != 0) {
    return fs::path(given);
  }
  return on_path("bgolly");
}

/// Golly's pattern collection: share/golly/Patterns in the prefix that holds bgolly's bin/.
fs::path golly_patterns() {
  const auto program = bgolly();
  if (!program) {
    throw Error("Golly's patterns are found beside bgolly, which is not on PATH and "
                "LIFEBENCH_BGOLLY is not set (Debian's golly package, which tools/setup.sh "
                "installs)");
  }
  std::error_code error;
  const fs::path real = fs::canonical(*program, error);
  return (error ? *program : real).parent_path().parent_path() / "share" / "golly" / "Patterns";
}

} // namespace

fs::path resolve_pattern(const std::string& given) {
  fs::path file;
  if (given.starts_with(kGollyPrefix)) {
    file = golly_patterns() / given.substr(kGollyPrefix.size());
  } else if (given.starts_with("datasets/")) {
    file = program_folder() / given;
  } else {
    file = given;
  }
  std::error_code error;
  if (!fs::is_regular_file(file, error)) {
    throw Error("pattern " + given + ": no file " + file.string());
  }
  return fs::absolute(file).lexically_normal();
}

void resolve_patterns(std::vector<SweepConfiguration>& configurations) {
  struct Found {
    fs::path file;
    Workload pattern;
  };
  std::map<std::string, Found> found; // by the pattern as given
  for (SweepConfiguration& c : configurations) {
    if (!c.pattern) continue;
    try {
      auto it = found.find(*c.pattern);
      if (it == found.end()) {
        fs::path file = resolve_pattern(*c.pattern);
        Workload pattern = read_pattern(file);
        it = found.emplace(*c.pattern, Found{std::move(file), std::move(pattern)}).first;
      }
      c.pattern_file = it->second.file;
      if (auto refusal = placement_refusal(it->second.pattern, c.problem, c.offset)) {
        throw Error(*refusal);
      }
    } catch (const Error& error) {
      throw Error(c.origin + ": " + error.what());
    }
  }
}

std::optional<ResultPattern> result_pattern(const Configuration& c) {
  if (!c.pattern) return std::nullopt;
  const Workload pattern = read_pattern(c.pattern_file);
  ResultPattern result{.name = pattern.name,
                       .path = *c.pattern,
                       .hash = pattern_hash(pattern),
                       .offset = std::nullopt};
  if (c.offset) result.offset = std::array{c.offset->x, c.offset->y};
  return result;
}

} // namespace lifebench::driver
