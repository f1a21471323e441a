// The RLE reader: any text reads or is refused with lifebench::Error; a pattern that reads
// has its runs inside its size, is written back and read again onto the same cells, and is
// placed into its rule's grid or refused, the same whether read as runs or straight into
// the grid. Gzipped input is read as a .rle.gz file, through the inflating reader.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/state_io.hpp"

#include <optional>
#include <sstream>
#include <string>

namespace {

using namespace lifebench;

/// Grids of up to this many cells are made: a few bytes may rightly ask for a grid as large
/// as the machine's memory, which would only exercise the allocator.
constexpr std::int64_t kMaxGridCells = std::int64_t{1} << 22;

/// Runs inside the pattern, non-empty, in file order, adjoining ones merged.
bool runs_are_well_formed(const Pattern& pattern) {
  const LiveRun* previous = nullptr;
  for (const LiveRun& run : pattern.alive) {
    if (run.length <= 0 || run.x < 0 || run.length > pattern.size.width - run.x || run.y < 0 ||
        run.y >= pattern.size.height) {
      return false;
    }
    if (previous != nullptr && (run.y < previous->y || (run.y == previous->y &&
                                                        run.x <= previous->x + previous->length))) {
      return false;
    }
    previous = &run;
  }
  return true;
}

/// Writes the cells with the pattern's generation and reads them back.
void check_round_trip(const Pattern& pattern) {
  const Grid cells = pattern.cells();
  Rule rule = parse_rule_spec("B3/S23").rule;
  if (pattern.rule && pattern.rule->rule.topology != Topology::cube) rule = pattern.rule->rule;
  const Problem problem{rule, pattern.size, Boundary::torus};
  std::ostringstream out;
  write_rle(out, cells, problem, pattern.generation);
  std::istringstream in(out.str());
  const Pattern back = read_rle(in, "written.rle"); // what we write must read
  fuzz::require(back.cells() == cells, "written cells read back differently");
  fuzz::require(back.generation == pattern.generation, "the generation changed");
  fuzz::require(back.rule && back.rule->rule == rule && back.rule->shape == pattern.size,
                "the rule or grid changed");
  fuzz::require(back.position.has_value() &&
                    place_in_grid(back, pattern.size, *back.position) == cells,
                "the written position places the cells elsewhere");
}

/// Gzipped input is read as a .rle.gz file, inflated as it is read, onto a small bounded
/// grid (so that no header makes a large one): it reads or is refused with Error.
void check_gzipped(std::string_view text) {
  static const fuzz::InputFile packed(".rle.gz");
  try {
    const State state = read_state(packed.holding(text), ReadOptions{.rule = "B3/S23:T64,64"});
    fuzz::require(state.grid.shape() == Shape{64, 64, 1}, "read onto another grid");
  } catch (const Error&) {
    // Damaged, cut short, a bomb, or a pattern that does not fit.
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::text_of(data, size));
  if (fuzz::looks_gzipped(text)) {
    check_gzipped(text);
    return 0;
  }
  std::istringstream in(text);
  Pattern pattern;
  try {
    pattern = read_rle(in, "fuzz.rle");
  } catch (const Error&) {
    return 0;
  }
  // Golly writes a pattern with no live cell as "x = 0, y = 0".
  const bool empty = pattern.size == Shape{0, 0, 1} && pattern.alive.empty();
  fuzz::require(empty ||
                    (invalid_shape_reason(pattern.size) == std::nullopt && pattern.size.depth == 1),
                "a pattern of an invalid size was read");
  fuzz::require(runs_are_well_formed(pattern), "runs outside the pattern or out of order");
  if (!empty && pattern.size.cells() <= kMaxGridCells) check_round_trip(pattern);

  if (!pattern.rule || !pattern.rule->shape) return 0;
  const Shape grid = *pattern.rule->shape;
  if (grid.cells() > kMaxGridCells) return 0;
  std::optional<Grid> placed;
  try {
    placed = pattern.position ? place_in_grid(pattern, grid, *pattern.position)
                              : place_in_grid(pattern, grid);
    std::int64_t alive = 0;
    for (const LiveRun& run : pattern.alive)
      alive += run.length;
    fuzz::require(placed->population() == alive, "placement lost or made cells");
  } catch (const Error&) {
    // Larger than the grid, or a position outside it.
  }
  // Read straight into the grid, as lifebench reads a file: the same cells, or a refusal.
  std::istringstream again(text);
  try {
    const Grid direct = read_rle_into_grid(again, "fuzz.rle", [&](const Pattern&) { return grid; });
    fuzz::require(placed && direct == *placed, "read into the grid, the cells differ");
  } catch (const Error&) {
    fuzz::require(!placed, "read into the grid, a pattern that fits is refused");
  }
  return 0;
}
