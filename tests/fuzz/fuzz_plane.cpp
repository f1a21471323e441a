// Golly's patterns of its plane, Life 1.05/1.06 and macrocell: any text reads or is refused
// with lifebench::Error by each reader; what reads gives runs inside its box, reads onto its
// plane with those cells and no other, and is written as RLE at its place and read back.
// Gzipped input is read as .lif.gz and .mc.gz files, through the inflating reader.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "lifebench/plane_pattern.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/state_io.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace {

using namespace lifebench;

/// Patterns of up to this many cells in their box are expanded: a few bytes of a macrocell
/// tree may rightly stand for more cells than the machine's memory holds, which lifebench
/// refuses before it expands them.
constexpr std::int64_t kMaxBoxCells = std::int64_t{1} << 16;

using Cells = std::set<std::pair<std::int64_t, std::int64_t>>;

void check(const PlanePattern& pattern, const std::filesystem::path& file) {
  const Box& box = pattern.box;
  fuzz::require(box.width >= 0 && box.height >= 0 && (box.width == 0) == (box.height == 0),
                "a box of a negative size, or of a width without a height");
  if (box.width > kMaxBoxCells / std::max<std::int64_t>(box.height, 1)) return;
  Cells cells;
  pattern.runs([&](std::int64_t x, std::int64_t y, std::int64_t length) {
    fuzz::require(length > 0 && x >= box.left && y >= box.top &&
                      x + length <= box.left + box.width && y < box.top + box.height,
                  "a run outside the pattern's box");
    for (std::int64_t i = 0; i < length; ++i)
      cells.emplace(x + i, y);
  });
  fuzz::require(cells.empty() == (box.width == 0), "a box without cells, or cells without one");
  if (pattern.rule && (pattern.rule->shape || pattern.rule->rule.born(0) ||
                       pattern.rule->rule.topology == Topology::cube)) {
    return; // a bounded grid, a plane that B0 fills, or no 2D rule: refused or placed elsewhere
  }
  const State state = read_state(file, std::nullopt);
  fuzz::require(state.origin && state.grid.population() == static_cast<std::int64_t>(cells.size()),
                "the plane holds other cells than the pattern");
  for (const auto& [x, y] : cells) {
    fuzz::require(state.grid.at(x - state.origin->x, y - state.origin->y) == 1,
                  "a live cell is dead on the plane");
  }
  std::ostringstream out;
  write_rle_plane(out, state.grid, state.problem.rule, *state.origin, 0);
  std::istringstream in(out.str());
  const Pattern back = read_rle(in, "written.rle");
  Cells written;
  const Position at = back.position.value_or(Position{});
  for (const LiveRun& run : back.alive) {
    for (std::int64_t i = 0; i < run.length; ++i)
      written.emplace(at.x + run.x + i, at.y + run.y);
  }
  fuzz::require(written == cells, "written as RLE, the cells read back elsewhere");
}

/// Gzipped input is read as .lif.gz and .mc.gz files, inflated as they are read, onto a small
/// bounded grid (so that no tree makes a large one): each reads or is refused with Error.
void check_gzipped(std::string_view text) {
  static const fuzz::InputFile life(".lif.gz");
  static const fuzz::InputFile macrocell(".mc.gz");
  for (const auto* file : {&life, &macrocell}) {
    try {
      const State state = read_state(file->holding(text), ReadOptions{.rule = "B3/S23:T64,64"});
      fuzz::require(state.grid.shape() == Shape{64, 64, 1}, "read onto another grid");
    } catch (const Error&) {
      // Damaged, cut short, a bomb, or a pattern that does not fit.
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::InputFile life(".lif");
  static const fuzz::InputFile macrocell(".mc");
  const std::string text(fuzz::text_of(data, size));
  if (fuzz::looks_gzipped(text)) {
    check_gzipped(text);
    return 0;
  }
  for (const auto* file : {&life, &macrocell}) {
    const auto& path = file->holding(text);
    PlanePattern pattern;
    try {
      std::istringstream in(text);
      pattern = file == &life ? read_life(in, "fuzz.lif") : read_macrocell(in, "fuzz.mc");
    } catch (const Error&) {
      continue;
    }
    check(pattern, path);
  }
  return 0;
}
