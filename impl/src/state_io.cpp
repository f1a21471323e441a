// Reading and writing states by file extension.
#include "lifebench/state_io.hpp"

#include "gzip.hpp"
#include "lifebench/error.hpp"
#include "lifebench/format3d.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/plane_pattern.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/universe.hpp"
#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <system_error>

namespace lifebench {
namespace {

enum class Format { rle, life, macrocell, cube, universe };

/// A file's format, and whether it is gzipped (".rle.gz").
struct FileFormat {
  Format format = Format::rle;
  bool gzip = false;
};

std::string lowercase_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

FileFormat format_of(const std::filesystem::path& path) {
  const bool gzip = lowercase_extension(path) == ".gz";
  const std::string extension = lowercase_extension(gzip ? path.stem() : path);
  const auto format = [&]() -> std::optional<Format> {
    if (extension == ".rle") return Format::rle;
    if (extension == ".lif" || extension == ".life") return Format::life;
    if (extension == ".mc") return Format::macrocell;
    if (gzip) return std::nullopt; // Golly gzips its pattern files only
    if (extension == ".dat" || extension == ".bin") return Format::cube;
    if (extension == ".lbu") return Format::universe;
    return std::nullopt;
  }();
  if (!format) {
    throw Error(path.string() + ": unknown extension \"" +
                (gzip ? path.stem().extension().string() : std::string()) +
                path.extension().string() +
                "\": use .rle (2D), .lif or .life (Life 1.05/1.06), .mc (macrocell), any of "
                "these gzipped (.rle.gz), .lbu (2D universe file) or .dat/.bin (3D)");
  }
  return {*format, gzip};
}

/// The format of a file to write: RLE, a universe file or the 3D format.
Format writable_format_of(const std::filesystem::path& path) {
  const FileFormat file = format_of(path);
  if (file.gzip || file.format == Format::life || file.format == Format::macrocell) {
    throw Error("cannot write " + path.string() +
                ": lifebench writes .rle (2D), .lbu (2D universe file) and .dat/.bin (3D)");
  }
  return file.format;
}

/// The rule a file runs with: `options.rule` where given, with a warning where it differs from
/// the rule the file names, else the file's, else Conway's (Golly's default).
RuleSpec rule_to_run(const std::optional<RuleSpec>& named, const ReadOptions& options,
                     const std::string& source) {
  if (!options.rule) return named.value_or(parse_rule_spec("B3/S23"));
  RuleSpec given = parse_rule_spec(*options.rule);
  const auto text = [](const RuleSpec& spec) {
    return spec.shape ? Problem{spec.rule, *spec.shape, spec.boundary}.to_string()
                      : spec.rule.to_string();
  };
  // A bounded grid given to a pattern of the unbounded plane changes nothing the file says.
  const bool differs =
      named && (given.rule != named->rule || (named->shape && (given.shape != named->shape ||
                                                               given.boundary != named->boundary)));
  if (differs && options.warn) {
    options.warn(source + ": the rule given, " + text(given) + ", replaces the file's " +
                 text(*named));
  }
  return given;
}

void require_2d(const RuleSpec& spec, const std::string& source, const char* what) {
  if (spec.rule.topology == Topology::cube) {
    throw Error(source + ": the 3D rule " + spec.rule.to_string() + " cannot run a 2D " + what);
  }
}

/// options.before_grid(problem), where there is one.
void check_before_grid(const Problem& problem, const ReadOptions& options) {
  if (options.before_grid) options.before_grid(problem);
}

State read_rle_state(std::istream& in, const std::string& source, const ReadOptions& options) {
  std::optional<RuleSpec> spec;
  std::optional<PlaneGrid> plane;
  std::uint64_t generation = 0;
  // The grid is made once the header is checked: a few bytes may claim a huge pattern.
  Grid grid = read_rle_placed(in, source, [&](const Pattern& pattern) {
    spec = rule_to_run(pattern.rule, options, source);
    require_2d(*spec, source, "RLE pattern");
    generation = pattern.generation;
    if (spec->shape) {
      check_before_grid(Problem{spec->rule, *spec->shape, spec->boundary}, options);
      return Placement{*spec->shape, corner_in_grid(pattern, *spec->shape)};
    }
    // On its unbounded plane Golly puts a pattern without "#CXRLE Pos" at (0, 0).
    const Position at = pattern.position.value_or(Position{});
    plane = plane_grid(source, Box{at.x, at.y, pattern.size.width, pattern.size.height}, spec->rule,
                       options.plane);
    check_before_grid(plane->problem, options);
    return Placement{plane->problem.shape, Cell{at.x - plane->origin.x, at.y - plane->origin.y}};
  });
  if (plane) return State{plane->problem, std::move(grid), generation, plane->origin};
  return State{Problem{spec->rule, *spec->shape, spec->boundary}, std::move(grid), generation};
}

/// A bounded grid as Golly places it on its plane, its top-left cell at (-(W/2), -(H/2));
/// throws unless the live cells' box lies in it.
PlaneGrid bounded_grid(const RuleSpec& spec, const Box& box, const std::string& source) {
  const Shape& shape = *spec.shape;
  const Position origin{-(shape.width / 2), -(shape.height / 2)};
  if (box.width > 0 &&
      (box.left < origin.x || box.top < origin.y || box.left + box.width > origin.x + shape.width ||
       box.top + box.height > origin.y + shape.height)) {
    throw Error(source + ": the live cells, from (" + std::to_string(box.left) + ", " +
                std::to_string(box.top) + ") to (" + std::to_string(box.left + box.width - 1) +
                ", " + std::to_string(box.top + box.height - 1) + "), do not fit into the " +
                shape.to_string() + " grid, from (" + std::to_string(origin.x) + ", " +
                std::to_string(origin.y) + ")");
  }
  return {Problem{spec.rule, shape, spec.boundary}, origin};
}

/// A Life 1.05/1.06 or macrocell pattern onto its bounded grid or its plane.
State place_plane_pattern(const PlanePattern& pattern, const std::string& source,
                          const ReadOptions& options) {
  const RuleSpec spec = rule_to_run(pattern.rule, options, source);
  require_2d(spec, source, "pattern");
  const PlaneGrid placed = spec.shape ? bounded_grid(spec, pattern.box, source)
                                      : plane_grid(source, pattern.box, spec.rule, options.plane);
  check_before_grid(placed.problem, options);
  Grid grid(placed.problem.shape);
  pattern.runs([&](std::int64_t x, std::int64_t y, std::int64_t length) {
    std::uint8_t* row = grid.data() + grid.index(x - placed.origin.x, y - placed.origin.y);
    std::fill(row, row + length, std::uint8_t{1});
  });
  std::optional<Position> origin;
  if (!spec.shape) origin = placed.origin;
  return State{placed.problem, std::move(grid), pattern.generation, origin};
}

State read_cube_state(std::istream& in, const std::string& path,
                      const std::optional<std::string>& rule_override) {
  Universe3D universe = read_3d(in, path);
  const Shape shape = universe.cells.shape();
  // The file fixes the size; the rule defaults to the HPCGame's own.
  RuleSpec spec = parse_rule_spec(rule_override.value_or("B6/S567/3D"));
  if (spec.rule.topology != Topology::cube) {
    throw Error(path + ": the 2D rule " + spec.rule.to_string() + " cannot run a 3D universe");
  }
  if (spec.shape && *spec.shape != shape) {
    throw Error(path + ": the rule's bounded grid " + spec.shape->to_string() +
                " differs from the file's " + shape.to_string());
  }
  return State{Problem{spec.rule, shape, spec.boundary}, std::move(universe.cells),
               universe.generation};
}

/// A whole universe file in memory (small cases; large ones are streamed by row bands).
State read_universe_state(const std::filesystem::path& path, const ReadOptions& options) {
  UniverseReader reader(path);
  Problem problem = reader.header().problem;
  if (options.rule) {
    const RuleSpec spec = parse_rule_spec(*options.rule);
    if (spec.rule.topology != Topology::square) {
      throw Error(path.string() + ": the rule " + spec.rule.to_string() +
                  " cannot run a square-grid universe");
    }
    if (spec.shape && *spec.shape != problem.shape) {
      throw Error(path.string() + ": the rule's bounded grid " + spec.shape->to_string() +
                  " differs from the file's " + problem.shape.to_string());
    }
    const Problem given{spec.rule, problem.shape, spec.shape ? spec.boundary : problem.boundary};
    if (given != problem && options.warn) {
      options.warn(path.string() + ": the rule given, " + given.to_string() +
                   ", replaces the file's " + problem.to_string());
    }
    problem = given;
  }
  check_before_grid(problem, options);
  Grid grid(problem.shape); // before the rows: it refuses a grid larger than the host's memory
  std::vector<std::uint64_t> words(
      static_cast<std::size_t>(problem.shape.height * reader.header().words_per_row()));
  reader.read_rows(0, problem.shape.height, words);
  unpack_rows<std::uint64_t>(words, grid);
  return State{problem, std::move(grid), reader.header().generation};
}

/// A file of text or bytes, from `in` (inflated where it is gzipped).
State read_stream_state(std::istream& in, Format format, const std::string& source,
                        const ReadOptions& options) {
  switch (format) {
  case Format::rle:
    return read_rle_state(in, source, options);
  case Format::life:
    return place_plane_pattern(read_life(in, source), source, options);
  case Format::macrocell:
    return place_plane_pattern(read_macrocell(in, source), source, options);
  case Format::cube:
    return read_cube_state(in, source, options.rule);
  case Format::universe:
    break;
  }
  throw Error(source + ": a universe file is not read as a stream");
}

} // namespace

bool is_universe_file(const std::filesystem::path& path) {
  return lowercase_extension(path) == ".lbu";
}

State read_state(const std::filesystem::path& path, const ReadOptions& options) {
  const FileFormat file = format_of(path);
  if (file.format == Format::universe) return read_universe_state(path, options);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("cannot read " + path.string() + ": " + detail::os_reason());
  }
  if (!file.gzip) return read_stream_state(in, file.format, path.string(), options);
  if (!detail::starts_as_gzip(in)) {
    // Golly reads such a file as it stands (zlib's gzopen does; its collection holds one,
    // Life/Rakes/weekender-distaff.rle.gz), so lifebench does too, and says so if it fails.
    try {
      return read_stream_state(in, file.format, path.string(), options);
    } catch (const Error& e) {
      throw Error(path.string() +
                  ": not gzip data (no 1f 8b at its start), nor a pattern as "
                  "it stands: " +
                  e.what());
    }
  }
  // Inflated as the reader reads, so that no copy of the whole text is ever held.
  detail::GzipBuffer buffer(in, path.string());
  std::istream unpacked(&buffer);
  unpacked.exceptions(std::ios::badbit); // the buffer's Error, not a bare read error
  return read_stream_state(unpacked, file.format, path.string(), options);
}

State read_state(const std::filesystem::path& path,
                 const std::optional<std::string>& rule_override) {
  return read_state(path, ReadOptions{.rule = rule_override});
}

void require_writable(const std::filesystem::path& path, const Problem& problem, bool unbounded) {
  const Format format = writable_format_of(path);
  if (unbounded && format != Format::rle) {
    throw Error(path.string() +
                ": a pattern of Golly's unbounded plane is written as RLE (.rle), "
                "which keeps its place on the plane; a bounded grid in --rule "
                "(e.g. " +
                problem.rule.to_string() + ":P" + std::to_string(problem.shape.width) + "," +
                std::to_string(problem.shape.height) + ") runs it on one");
  }
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
  const Format format = writable_format_of(path);
  require_writable(path, state.problem, state.origin.has_value());
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
    if (state.origin) {
      write_rle_plane(out, state.grid, state.problem.rule, *state.origin, state.generation);
    } else if (format == Format::rle) {
      write_rle(out, state.grid, state.problem, state.generation);
    } else {
      write_3d(out, state.grid, state.generation);
    }
  });
}

} // namespace lifebench
