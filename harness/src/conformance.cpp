#include "conformance.hpp"

#include "checks.hpp"
#include "lifebench/params.hpp"
#include "verification.hpp"

#include <charconv>
#include <system_error>
#include <vector>

namespace lifebench::harness {
namespace {

struct FamilyMatrix {
  std::vector<std::string> rules;
  std::vector<Shape> shapes;
};

// Beside word-aligned shapes, odd and tiny ones (partial blocks, a torus so small
// that a cell's neighbours coincide); experiments that refuse them are skipped.
FamilyMatrix matrix_for(const std::string& family) {
  if (family == "hex") {
    return {{"B2/S34H", "B2/SH", "B245/S3H", "B13/S2H"},
            {{64, 64, 1}, {48, 40, 1}, {256, 96, 1}, {33, 17, 1}, {2, 3, 1}}};
  }
  if (family == "3d") {
    return {{"B6/S567/3D", "B5,6/S4,5,6,7/3D"}, {{32, 32, 32}, {64, 64, 64}, {96, 96, 96}}};
  }
  return {{"B3/S23", "B36/S23"},
          {{64, 64, 1},
           {96, 40, 1},
           {256, 128, 1},
           {128, 256, 1},
           {1024, 256, 1},
           {33, 17, 1},
           {100, 7, 1},
           {31, 65, 1},
           {2, 3, 1},
           {1, 1, 1}}};
}

/// Every combination of allowed values for the axes not pinned by `fixed`.
std::vector<std::map<std::string, std::string>>
parameter_sets(const ExperimentInfo& info, const std::map<std::string, std::string>& fixed) {
  std::vector<std::map<std::string, std::string>> sets{fixed};
  for (const auto& axis : info.axes) {
    if (fixed.contains(axis.name) || axis.allowed.empty()) continue;
    std::vector<std::map<std::string, std::string>> grown;
    for (const auto& set : sets) {
      for (const auto& value : axis.allowed) {
        auto next = set;
        next[axis.name] = value;
        grown.push_back(std::move(next));
      }
    }
    sets = std::move(grown);
  }
  return sets;
}

} // namespace

std::optional<Shard> parse_shard(std::string_view text) {
  const auto part = [](std::string_view digits) -> std::optional<int> {
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
      return std::nullopt;
    }
    return value;
  };
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto k = part(text.substr(0, slash));
  const auto n = part(text.substr(slash + 1));
  if (!k || !n || *n < 1 || *n > 64 || *k < 1 || *k > *n) return std::nullopt;
  return Shard{*k - 1, *n};
}

bool run_conformance(const ExperimentInfo& info, const std::map<std::string, std::string>& fixed,
                     Shard shard, std::ostream& log) {
  const FamilyMatrix matrix = matrix_for(info.about.family);
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::uint64_t seed = 1;
  int runnable = 0; // problems run so far, in every part alike
  for (const auto& given : parameter_sets(info, fixed)) {
    const Params params = resolve_params(info.about.name, info.axes, given);
    const std::uint64_t crossing = verify_generations(info, params);
    for (const auto& rule_text : matrix.rules) {
      for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
        for (const Shape& shape : matrix.shapes) {
          const Problem problem{parse_rule_spec(rule_text).rule, shape, boundary};
          const std::string label =
              problem.to_string() + (params.values().empty() ? "" : " " + params.to_string());
          if (auto reason = unsupported_reason(info, problem, params)) {
            // The first part lists what the matrix skips.
            if (shard.index == 0) {
              log << "skip " << label << ": " << *reason << "\n";
              ++skipped;
            }
            continue;
          }
          // Runnable problems are dealt to the parts in turn, each with its two seeds, the
          // first part one further on each round: a matrix of as many problems a
          // parameter set as parts gives each part every shape, not one shape always.
          std::uint64_t case_seed = seed;
          seed += 2;
          const int round = runnable / shard.count;
          if ((runnable++ + round) % shard.count != shard.index) continue;
          // One generation, then enough to cross every internal boundary, split
          // unevenly over two advance() calls.
          for (const auto& [first, second] :
               {std::pair<std::uint64_t, std::uint64_t>{1, 0}, {crossing, crossing + 2}}) {
            const VerificationCase check{problem, first, second, case_seed++,
                                         soup_density(problem.rule.topology)};
            const VerificationOutcome outcome = verify_case(info, params, check);
            log << (outcome.passed ? "pass " : "FAIL ") << label << " g" << first << "+" << second
                << (outcome.passed ? "" : ": " + outcome.detail) << "\n";
            (outcome.passed ? passed : failed) += 1;
          }
        }
      }
    }
  }
  log << info.about.name
      << (shard.count == 1
              ? ""
              : " part " + std::to_string(shard.index + 1) + " of " + std::to_string(shard.count))
      << ": " << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  return failed == 0 && passed > 0;
}

} // namespace lifebench::harness
