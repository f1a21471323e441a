// Sweep files: any text is read or refused with lifebench::Error (toml++'s parse errors
// included, turned into one), as a standalone file and as an experiment's own, against a
// fixed catalog of three experiments; runs that read expand into configurations of valid
// problems with distinct ids.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "sweep.hpp"

#include <cmath>
#include <set>

namespace {

using namespace lifebench;
using namespace lifebench::driver;

/// One experiment of each family, with a parameter of any value and one of a few.
Catalog fixed_catalog() {
  Catalog catalog;
  const std::vector<Axis> axes{{"threads", "1", {}, "any value"},
                               {"variant", "a", {"a", "b", "c"}, "one of three"}};
  for (const char* family : {"3d", "hex", "square"}) {
    Experiment e;
    e.name = std::string("fuzz-") + family;
    e.binary = "/nonexistent/lifebench-exp-" + e.name;
    e.family = family;
    e.backend = "cpu";
    e.axes = axes;
    catalog.names.push_back(e.name);
    catalog.experiments.push_back(e);
  }
  catalog.names.emplace_back("fuzz-broken");
  catalog.broken.push_back({"fuzz-broken", "/nonexistent/lifebench-exp-fuzz-broken", "crashed"});
  return catalog;
}

void check_configurations(const std::vector<SweepRun>& runs, const Catalog& catalog) {
  std::set<std::string> ids;
  for (const SweepConfiguration& c : expand(runs, catalog)) {
    fuzz::require(invalid_shape_reason(c.problem.shape) == std::nullopt, "an invalid shape");
    fuzz::require(c.generations >= 1 && c.stopping.min_repetitions >= 1 && c.warmup >= 0,
                  "a count out of range");
    fuzz::require(c.time_limit_s > 0 && std::isfinite(c.time_limit_s), "a time limit not finite");
    fuzz::require(ids.insert(c.name()).second, "one configuration id twice");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Catalog catalog = fixed_catalog();
  static const fuzz::InputFile file(".toml");
  const auto& path = file.holding(fuzz::text_of(data, size));
  for (const Experiment* owner :
       {static_cast<const Experiment*>(nullptr), &catalog.experiments[2]}) {
    try {
      check_configurations(read_sweep_file(path, catalog, owner), catalog);
    } catch (const Error&) {
      // Refused, with one message.
    }
  }
  return 0;
}
