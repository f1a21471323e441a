// The description of an external experiment: how to run a program lifebench does not build
// (experiments/external-<name>/external.toml, copied beside the adapter as
// <name>.external.toml). Unknown keys are errors, so that a typo is caught.
//
// clang-format off
//   family = "square"                    # square | hex | 3d                     (required)
//   backend = "cpu"                      # cpu | simd | cuda | opencl            (required)
//   source = "Golly 3.3, QuickLife"      # what the program is                   (required)
//   technique = "..."                    # one line                              (required)
//
//   [program]
//   name = "bgolly"                      # looked up on PATH, or a path          (required)
//   path_variable = "LIFEBENCH_BGOLLY"   # when set, names the program instead
//   install = "Debian's golly package"   # how to get it, said when it is missing
//   version_args = ["--help"]            # run to read its version (any exit status) ...
//   version_pattern = 'bgolly ([0-9.]+)' # ... from its output: group 1, else the match
//   time_limit_s = 600                   # one run's limit (default 600)
//
//   [run]
//   command = ["{program}", "-m", "{generations}", "-o", "{output}", "{input}"]   (required)
//     # placeholders: {program} (first), {input}, {output} (both required), {generations},
//     # {rule} (the problem, "B3/S23:T64,64"), {width}, {height}, {depth}
//   input = "rle"                        # the file lifebench writes: rle (2D, generation 0),
//   output = "rle"                       # lbu (a square grid's universe file, generation 0)
//                                        # or dat (3D, HPCGame: its T the generations to run);
//                                        # output also mc (Golly's macrocell, 2D)
//
//   [timing]
//   timer = "printed"                    # process: the whole process's wall time;
//                                        # printed: a time the program prints:
//   stream = "stdout"                    #   stdout | stderr (default stdout)
//   pattern = '^time: ([0-9.]+) ms$'     #   a line's regular expression (ECMAScript); group 1
//   unit = "ms"                          #   s | ms | us | ns
//   take = "last"                        #   last match, or last-minus-first (timestamps)
//
//   [place]                              # optional: where the output gives the box of its live
//                                        # cells but not the box's place (Golly's RLE of a
//                                        # bounded grid), a second run that prints the place
//   command = ["{program}", "--exec", "{script}", "{input}"]   # placeholders as run's but
//                                        # {output}, and {script}: a file of `step` once a
//                                        # generation,
//   step = "step 1"                      # then `then` (both required)
//   then = "edges"
//   pattern = '^Bounding box (-?[0-9]+) (-?[0-9]+) '  # groups 1, 2: the box's left, top
//
//   [supports]                           # each key optional: what it can run
//   rules = ["B3/S23"]                   # default: every rule of its family
//   b0 = false                           # no rule with B0 (default true)
//   boundaries = ["torus"]               # torus | dead (default both)
//   width_multiple = 32                  # also height_multiple, depth_multiple
//   min_width = 64                       # also min_height, min_depth
//   note = "why"                         # said after each reason a problem is refused
// clang-format on
#pragma once

#include "lifebench/problem.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::external {

/// A state file format of lifebench's: RLE (2D), a universe file (square grids: a bit a
/// cell, for universes whose RLE would be gigabytes), the HPCGame format (3D), or, as an
/// output only, Golly's macrocell (2D, two states), which places its cells in the grid where
/// Golly's RLE of a bounded grid gives only their box.
enum class FileFormat { rle, lbu, dat, mc };
enum class Timer { process, printed };
enum class Take { last, last_minus_first };

/// The problems a program can run; each limit says why in unsupported_reason().
struct Supports {
  std::vector<Rule> rules;          ///< empty: every rule of its family
  bool b0 = true;                   ///< rules with birth on no live neighbour
  std::vector<Boundary> boundaries; ///< empty: both
  Shape multiple{1, 1, 1};          ///< width, height and depth must be multiples of these
  Shape minimum{1, 1, 1};           ///< and at least these
  std::string note;
};

/// A run that prints where the output's box of live cells lies, for programs whose output
/// does not say (Description::place).
struct Place {
  std::vector<std::string> command; ///< run.command's placeholders but {output}, and {script}
  std::string step;                 ///< the script's line for each generation
  std::string then;                 ///< the script's last line
  std::string pattern;              ///< groups 1 and 2: the box's left and top, Golly's x and y
};

struct Description {
  std::filesystem::path file;
  std::string family;
  std::string backend;
  std::string source;
  std::string technique;

  std::string program; ///< a name looked up on PATH, or an absolute path
  std::string path_variable;
  std::string install;
  std::vector<std::string> version_args; ///< empty: no version is read
  std::string version_pattern;
  double time_limit_s = 600;

  std::vector<std::string> command;
  FileFormat input = FileFormat::rle;
  FileFormat output = FileFormat::rle;

  Timer timer = Timer::process;
  bool on_stderr = false; ///< the printed time is on standard error, not standard output
  std::string pattern;
  double unit_s = 1; ///< seconds per printed unit
  Take take = Take::last;

  Supports supports;
  std::optional<Place> place;

  /// What is wrong with the file past its first four keys (one line that starts with the
  /// file's name and line), or nothing: the experiment is unavailable for this reason.
  std::optional<std::string> fault;
};

/// Reads a description. Throws Error naming the file when it is not TOML or its family,
/// backend, source or technique is wrong (nothing can describe it then); any other fault is
/// kept in `fault`.
Description read_description(const std::filesystem::path& file);

/// Why `problem` is outside what the description supports (one line), or nothing; the
/// family is checked by the harness.
std::optional<std::string> unsupported_reason(const Description& description,
                                              const Problem& problem);

/// The command's argv with each placeholder replaced by its value in `values` (by name,
/// every placeholder the format knows).
std::vector<std::string>
expand_command(const std::vector<std::string>& command,
               const std::vector<std::pair<std::string, std::string>>& values);

/// The file name extension of a format, with its dot.
std::string extension(FileFormat format);

} // namespace lifebench::external
