// Reading and writing states by file extension.
#include "lifebench/state_io.hpp"

#include "lifebench/error.hpp"
#include "lifebench/format3d.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/universe.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <system_error>

namespace lifebench {
namespace {

enum class Format { rle, cube, universe };

std::string lowercase_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

Format format_of(const std::filesystem::path& path) {
  const std::string extension = lowercase_extension(path);
  if (extension == ".rle") return Format::rle;
  if (extension == ".dat" || extension == ".bin") return Format::cube;
  if (extension == ".lbu") return Format::universe;
  throw Error(path.string() + ": unknown extension \"" + path.extension().string() +
              "\": use .rle (2D), .lbu (2D universe file) or .dat/.bin (3D)");
}

State read_rle_state(std::istream& in, const std::filesystem::path& path,
                     const std::optional<std::string>& rule_override) {
  std::optional<RuleSpec> spec;
  std::uint64_t generation = 0;
  // The grid is made once the header is checked: a few bytes may claim a huge pattern.
  Grid grid = read_rle_into_grid(in, path.string(), [&](const Pattern& pattern) {
    spec = rule_override ? parse_rule_spec(*rule_override) : pattern.rule;
    if (!spec) {
      throw Error(path.string() +
                  ": no rule: add \"rule = B3/S23:T64,64\" (for example) to the header or pass "
                  "--rule");
    }
    if (spec->rule.topology == Topology::cube) {
      throw Error(path.string() + ": the 3D rule " + spec->rule.to_string() +
                  " cannot run a 2D RLE pattern");
    }
    if (!spec->shape) {
      const std::string rule = spec->rule.to_string();
      throw Error(path.string() + ": rule " + rule + " has no bounded grid: use e.g. " + rule +
                  ":T64,64");
    }
    generation = pattern.generation;
    return *spec->shape;
  });
  return State{Problem{spec->rule, *spec->shape, spec->boundary}, std::move(grid), generation};
}

State read_cube_state(std::istream& in, const std::filesystem::path& path,
                      const std::optional<std::string>& rule_override) {
  Universe3D universe = read_3d(in, path.string());
  const Shape shape = universe.cells.shape();
  // The file fixes the size; the rule defaults to the HPCGame's own.
  RuleSpec spec = parse_rule_spec(rule_override.value_or("B6/S567/3D"));
  if (spec.rule.topology != Topology::cube) {
    throw Error(path.string() + ": the 2D rule " + spec.rule.to_string() +
                " cannot run a 3D universe");
  }
  if (spec.shape && *spec.shape != shape) {
    throw Error(path.string() + ": the rule's bounded grid " + spec.shape->to_string() +
                " differs from the file's " + shape.to_string());
  }
  return State{Problem{spec.rule, shape, spec.boundary}, std::move(universe.cells),
               universe.generation};
}

/// A whole universe file in memory (small cases; large ones are streamed by row bands).
State read_universe_state(const std::filesystem::path& path,
                          const std::optional<std::string>& rule_override) {
  UniverseReader reader(path);
  Problem problem = reader.header().problem;
  if (rule_override) {
    const RuleSpec spec = parse_rule_spec(*rule_override);
    if (spec.rule.topology != Topology::square) {
      throw Error(path.string() + ": the rule " + spec.rule.to_string() +
                  " cannot run a square-grid universe");
    }
    if (spec.shape && *spec.shape != problem.shape) {
      throw Error(path.string() + ": the rule's bounded grid " + spec.shape->to_string() +
                  " differs from the file's " + problem.shape.to_string());
    }
    problem = Problem{spec.rule, problem.shape, spec.shape ? spec.boundary : problem.boundary};
  }
  Grid grid(problem.shape); // first: it refuses a grid larger than the host's memory
  std::vector<std::uint64_t> words(
      static_cast<std::size_t>(problem.shape.height * reader.header().words_per_row()));
  reader.read_rows(0, problem.shape.height, words);
  unpack_rows<std::uint64_t>(words, grid);
  return State{problem, std::move(grid), reader.header().generation};
}

} // namespace

bool is_universe_file(const std::filesystem::path& path) {
  return lowercase_extension(path) == ".lbu";
}

State read_state(const std::filesystem::path& path,
                 const std::optional<std::string>& rule_override) {
  const Format format = format_of(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("cannot read " + path.string() + ": " + std::generic_category().message(errno));
  }
  switch (format) {
  case Format::rle:
    return read_rle_state(in, path, rule_override);
  case Format::cube:
    return read_cube_state(in, path, rule_override);
  case Format::universe:
    break;
  }
  return read_universe_state(path, rule_override);
}

void require_writable(const std::filesystem::path& path, const Problem& problem) {
  const Format format = format_of(path);
  const bool cube = problem.rule.topology == Topology::cube;
  if (format != Format::cube && cube) {
    throw Error(path.string() + ": a 3D state cannot be written as RLE or a universe file: "
                                "use .dat or .bin");
  }
  if (format == Format::universe && problem.rule.topology != Topology::square) {
    throw Error(path.string() + ": a universe file holds square-grid states only: use .rle");
  }
  if (format == Format::cube && !cube) {
    throw Error(path.string() + ": a 2D state cannot be written in the 3D format: use .rle");
  }
  std::error_code error;
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  if (!std::filesystem::is_directory(folder, error)) {
    throw Error("cannot write " + path.string() + ": its folder " + folder.string() +
                " does not exist");
  }
  if (std::filesystem::is_directory(path, error)) {
    throw Error("cannot write " + path.string() + ": it is a folder");
  }
}

void write_state(const std::filesystem::path& path, const State& state) {
  const Format format = format_of(path);
  require_writable(path, state.problem);
  if (state.grid.shape() != state.problem.shape) {
    throw Error(path.string() + ": the grid is " + state.grid.shape().to_string() +
                " but the problem is " + state.problem.shape.to_string());
  }
  if (format == Format::universe) {
    const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
    write_universe(path, UniverseHeader{state.problem, state.generation},
                   [&](const RowSink& sink) { sink(words); });
    return;
  }
  write_file_atomically(path, [&](std::ostream& out) {
    if (format == Format::rle) {
      write_rle(out, state.grid, state.problem, state.generation);
    } else {
      write_3d(out, state.grid, state.generation);
    }
  });
}

} // namespace lifebench
