// Fujita, Nakano, Ito (seed 003) Section 8 on the CPU: the universe lives in a file and
// is advanced halo_steps generations per pass, one band of rows (sub-universe) at a
// time, with Algorithm SINGLE-WORD or DOUBLE-WORD; only two bands are ever in memory.
#include "cpu/outofcore.hpp"

#include "common/universe_file.hpp"
#include "cpu/bpbc_rows.hpp"
#include "lifebench/error.hpp"

#include <filesystem>
#include <string>

namespace lifebench {
namespace {

/// The `halo_steps` parameter, checked: 1 ... 4096.
int halo_steps(const Params& params) {
  const std::int64_t steps = params.get_int("halo_steps");
  if (steps < 1 || steps > 4096) throw Error("halo_steps must be 1 ... 4096");
  return static_cast<int>(steps);
}

/// The band rows of two band buffers filling the memory budget (0: none fit).
template <class Kernel> outofcore::Plan plan_of(const Problem& problem, const Params& params) {
  const int steps = halo_steps(params);
  const std::int64_t row_bytes = UniverseHeader{problem, 0}.words_per_row() * 8;
  const std::int64_t rows = params.get_bytes("memory") / (2 * row_bytes) - 2 * std::int64_t{steps};
  return {steps, std::max<std::int64_t>(0, rows - rows % Kernel::group)};
}

template <class Kernel>
std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto why = packed_rows::unsupported<Kernel>(problem, params)) return why;
  int steps = 0;
  std::int64_t band_rows = 0;
  try {
    steps = halo_steps(params);
    band_rows = plan_of<Kernel>(problem, params).band_rows;
  } catch (const Error& error) {
    return error.what();
  }
  if (band_rows == 0) {
    return "memory=" + params.get("memory") + " holds no band: each of two buffers needs " +
           std::to_string(Kernel::group) +
           " + 2 x halo_steps = " + std::to_string(Kernel::group + 2 * steps) + " rows of " +
           std::to_string(UniverseHeader{problem, 0}.words_per_row() * 8) + " bytes";
  }
  return outofcore::folder_unsupported(problem, params, 2);
}

template <class Kernel> class OutOfCoreSimulator final : public Simulator {
public:
  OutOfCoreSimulator(const Problem& problem, const Params& params)
      : problem_(problem), plan_(plan_of<Kernel>(problem, params)), file_(problem, params) {}

  void upload(const Grid& grid) override { file_.upload(grid); }
  void upload_soup(const SoupSpec& soup) override { file_.upload_soup(soup); }
  void advance(std::uint64_t generations) override {
    outofcore::advance<Kernel>(file_.path(), file_.path(), generations, plan_);
  }
  Grid download() override { return file_.download(); }

  static std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
    return lifebench::unsupported<Kernel>(problem, params);
  }
  static void advance_universe_file(const std::filesystem::path& in,
                                    const std::filesystem::path& out, std::uint64_t generations,
                                    const Params& params, std::uint64_t origin) {
    const Problem problem = UniverseReader(in).header().problem;
    outofcore::advance<Kernel>(in, out, generations, plan_of<Kernel>(problem, params), origin);
  }

  [[nodiscard]] std::map<std::string, std::string> device() const override {
    const UniverseHeader header{problem_, 0};
    // A band taller than the universe is allocated at the universe's height.
    const outofcore::Plan used{plan_.halo_steps, std::min(plan_.band_rows, problem_.shape.height)};
    std::map<std::string, std::string> info{
        {"band_rows", std::to_string(used.band_rows)},
        {"band_memory_bytes",
         std::to_string(outofcore::memory_bytes(used, header.words_per_row()))}};
    file_.describe(info);
    return info;
  }

private:
  Problem problem_;
  outofcore::Plan plan_;
  outofcore::UniverseFile file_;
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::packed_rows::words_experiment<lifebench::OutOfCoreSimulator>(
    {.about = {"cpu-outofcore", "square", "cpu",
               "seed 003 Section 8, a universe larger than memory streamed from disk "
               "(the CPU version of Table 3's scheme)",
               "universe file advanced halo_steps generations per pass, one band of rows "
               "with halo_steps halo rows at a time, SINGLE-WORD or DOUBLE-WORD, one thread"},
     .axes = {lifebench::packed_rows::words_axis(),
              lifebench::halo_steps_axis("16",
                                         "T: generations per pass over the file, and the halo "
                                         "rows read above and below each band, 1 ... 4096"),
              {.name = "memory",
               .default_value = "64M",
               .allowed = {},
               .description = "memory budget of the two band buffers (bytes, or with K, M, G); "
                              "the band rows (sub-universe height) follow from it"},
              lifebench::outofcore::folder_axis()},
     .verify_generations = [](const lifebench::Params& params) {
       return static_cast<std::uint64_t>(2 * lifebench::halo_steps(params) + 1);
     }}))
