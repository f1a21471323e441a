#include "external_simulator.hpp"

#include "lifebench/error.hpp"
#include "lifebench/format3d.hpp"
#include "lifebench/plane_pattern.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/state_io.hpp"
#include "text.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>
#include <vector>

namespace lifebench::external {
namespace {

namespace fs = std::filesystem;

/// Output kept of the stream a printed time is read from: every line of a run, so that the
/// first of a program's timestamps is there too (a timestamp a generation for millions).
constexpr std::size_t kPrintedLimit = std::size_t{64} << 20;
constexpr std::size_t kOtherLimit = std::size_t{64} << 10;

/// `text`, all of it, as a number of type T, or nothing (from_chars alone takes a prefix).
template <class T> std::optional<T> read_number(const std::string& text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// Throws Error where a file names another problem than `problem` (a rule, with its bounded
/// grid where it gives one).
void require_problem(const std::optional<RuleSpec>& rule, const std::string& name,
                     const Problem& problem) {
  if (!rule) return;
  const Problem written{rule->rule, rule->shape.value_or(problem.shape),
                        rule->shape ? rule->boundary : problem.boundary};
  if (written != problem) {
    throw Error("wrote " + name + " for " + written.to_string() + ", not " + problem.to_string());
  }
}

/// A macrocell file's cells in `problem`'s grid: Golly's coordinates of a bounded grid put its
/// top-left cell at (-(W/2), -(H/2)).
Grid macrocell_grid(const PlanePattern& pattern, const std::string& name, const Problem& problem) {
  require_problem(pattern.rule, name, problem);
  const Shape& shape = problem.shape;
  const std::int64_t left = -(shape.width / 2);
  const std::int64_t top = -(shape.height / 2);
  const Box& box = pattern.box;
  if (box.width > 0 &&
      (box.left < left || box.top < top || box.left + box.width > left + shape.width ||
       box.top + box.height > top + shape.height)) {
    throw Error("wrote cells outside the " + shape.to_string() + " grid");
  }
  Grid grid(shape);
  pattern.runs([&](std::int64_t x, std::int64_t y, std::int64_t length) {
    for (std::int64_t i = 0; i < length; ++i)
      grid.set(x - left + i, y - top, 1);
  });
  return grid;
}

/// A state of `problem` from the program's output file `file`; throws Error saying what
/// is wrong with it. `place` gives the place of an RLE's box of live cells where the file
/// does not (none: such a file is refused unless its box spans the grid).
Grid read_output(const fs::path& file, FileFormat format, const Problem& problem,
                 const std::function<Position()>& place) {
  const std::string name = file.filename().string();
  std::error_code error;
  if (!fs::is_regular_file(file, error)) throw Error("wrote no " + name);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("wrote " + name + ", which cannot be read");
  const auto parsed = [&](const auto& read) {
    try {
      return read(in, name);
    } catch (const Error& e) {
      throw Error(std::string("wrote a malformed state: ") + e.what());
    }
  };
  if (format == FileFormat::dat) {
    Universe3D universe = parsed(read_3d);
    if (universe.cells.shape() != problem.shape) {
      throw Error("wrote a " + universe.cells.shape().to_string() + " universe, not " +
                  problem.shape.to_string());
    }
    return std::move(universe.cells);
  }
  if (format == FileFormat::lbu) {
    // A universe file is read through its memory map, not the stream.
    State state =
        parsed([&](std::istream&, const std::string&) { return read_state(file, std::nullopt); });
    if (state.problem != problem) {
      throw Error("wrote " + name + " for " + state.problem.to_string() + ", not " +
                  problem.to_string());
    }
    return std::move(state.grid);
  }
  if (format == FileFormat::mc) return macrocell_grid(parsed(read_macrocell), name, problem);
  const Pattern pattern = parsed(read_rle);
  require_problem(pattern.rule, name, problem);
  if (pattern.position) return place_in_grid(pattern, problem.shape, *pattern.position);
  // Without a position the cells' place is known only when they span the grid, or from the
  // description's place run.
  if (pattern.size != problem.shape && !pattern.alive.empty()) {
    if (place) return place_in_grid(pattern, problem.shape, place());
    throw Error("wrote a " + pattern.size.to_string() + " pattern without its place in the " +
                problem.shape.to_string() + " grid (no \"#CXRLE Pos=x,y\" line)");
  }
  return place_in_grid(pattern, problem.shape);
}

/// What went wrong with a process that did not exit with status 0.
std::string process_failure(const driver::ProcessOutcome& outcome, double time_limit_s) {
  switch (outcome.end) {
  case driver::ProcessOutcome::End::timed_out:
    return "ran past its time limit of " + driver::format_number(time_limit_s, 6) +
           " s (program.time_limit_s)";
  case driver::ProcessOutcome::End::signalled:
    return driver::describe_signal(outcome.signal);
  case driver::ProcessOutcome::End::interrupted: // run_program() has thrown already
  case driver::ProcessOutcome::End::exited:
    break;
  }
  std::string line = driver::last_line(outcome.stderr_tail);
  if (line.empty()) line = driver::last_line(outcome.stdout_text);
  return "exited with code " + std::to_string(outcome.exit_code) +
         (line.empty() ? "" : ": " + line);
}

} // namespace

ExternalSimulator::ExternalSimulator(std::shared_ptr<const Description> description,
                                     Program program, const Problem& problem)
    : description_(std::move(description)), program_(std::move(program)), problem_(problem),
      folder_("lifebench-external"), state_(problem.shape) {}

void ExternalSimulator::upload(const Grid& grid) {
  LIFEBENCH_EXPECTS(grid.shape() == problem_.shape, "upload of a " + grid.shape().to_string() +
                                                        " grid to a " + problem_.shape.to_string() +
                                                        " problem");
  state_ = grid;
}

double ExternalSimulator::timed_advance(std::uint64_t generations) {
  const driver::ProcessOutcome outcome = run(generations);
  return description_->timer == Timer::process ? outcome.wall_s
                                               : printed_seconds(outcome, generations);
}

std::string ExternalSimulator::clock() const {
  // The process's start to its end on the host's steady clock, or the program's own timer.
  return description_->timer == Timer::process ? "process_wall" : "program_printed";
}

std::string ExternalSimulator::run_named(std::uint64_t generations) const {
  return description_->file.string() + ": " + program_.path.string() + " (" +
         std::to_string(generations) + " generations of " + problem_.to_string() + "): ";
}

driver::ProcessOutcome ExternalSimulator::run(std::uint64_t generations) {
  const Description& d = *description_;
  if (generations == 0) return {};
  const fs::path input = folder_.path() / ("input" + extension(d.input));
  const fs::path output = folder_.path() / ("output" + extension(d.output));
  // Golly runs an RLE's -m generations from the generation its file gives, so the state
  // goes out as generation 0 (a universe file too); the HPCGame's programs read T as the
  // generations to run.
  State state{problem_, std::move(state_), d.input == FileFormat::dat ? generations : 0};
  try {
    write_state(input, state);
  } catch (...) {
    state_ = std::move(state.grid);
    throw;
  }
  state_ = std::move(state.grid);
  throw_if_interrupted();
  std::error_code error;
  fs::remove(output, error);

  driver::ProcessRequest request;
  request.argv = expand_command(d.command, placeholders(input, output, generations));
  request.time_limit_s = d.time_limit_s;
  request.grace_s = 2;
  const bool printed = d.timer == Timer::printed;
  request.stdout_limit = printed && !d.on_stderr ? kPrintedLimit : kOtherLimit;
  request.stderr_limit = printed && d.on_stderr ? kPrintedLimit : kOtherLimit;
  driver::ProcessOutcome outcome;
  try {
    outcome = run_program(request);
  } catch (const Error& e) {
    throw Error(run_named(generations) + e.what());
  }
  if (!outcome.succeeded())
    throw Error(run_named(generations) + process_failure(outcome, d.time_limit_s));
  std::function<Position()> place;
  if (d.place) place = [&] { return placed(input, generations); };
  try {
    state_ = read_output(output, d.output, problem_, place);
  } catch (const Error& e) {
    throw Error(run_named(generations) + e.what());
  }
  fs::remove(input, error);
  fs::remove(output, error);
  return outcome;
}

std::vector<std::pair<std::string, std::string>>
ExternalSimulator::placeholders(const fs::path& input, const fs::path& output,
                                std::uint64_t generations) const {
  const auto size = [](std::int64_t n) { return std::to_string(n); };
  return {{"program", program_.path.string()},
          {"input", input.string()},
          {"output", output.string()},
          {"generations", std::to_string(generations)},
          {"rule", problem_.to_string()},
          {"width", size(problem_.shape.width)},
          {"height", size(problem_.shape.height)},
          {"depth", size(problem_.shape.depth)},
          {"script", script().string()}};
}

Position ExternalSimulator::placed(const fs::path& input, std::uint64_t generations) const {
  const Place& p = *description_->place;
  const fs::path script = this->script();
  {
    std::ofstream out(script, std::ios::binary);
    for (std::uint64_t g = 0; g < generations && out; ++g)
      out << p.step << '\n';
    out << p.then << '\n';
    if (!out) throw Error("cannot write " + script.string());
  }
  driver::ProcessRequest request;
  // place.command has no {output} (read_place refuses it): the place run writes no state.
  request.argv = expand_command(p.command, placeholders(input, fs::path(), generations));
  request.time_limit_s = description_->time_limit_s;
  request.grace_s = 2;
  request.stdout_limit = kOtherLimit; // its tail, where the place is printed last
  request.stderr_limit = kOtherLimit;
  const driver::ProcessOutcome outcome = run_program(request);
  std::error_code error;
  fs::remove(script, error);
  if (!outcome.succeeded()) {
    throw Error("its place run " + process_failure(outcome, description_->time_limit_s));
  }
  const std::regex pattern(p.pattern);
  std::istringstream lines(outcome.stdout_text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, pattern)) continue;
    Position at;
    for (auto [group, value] : {std::pair{1, &at.x}, std::pair{2, &at.y}}) {
      const std::string number = match[group].str();
      const auto parsed = read_number<std::int64_t>(number);
      if (!parsed) {
        throw Error("its place run printed \"" + number + "\" where place.pattern '" + p.pattern +
                    "' takes a whole number");
      }
      *value = *parsed;
    }
    return at;
  }
  throw Error("its place run printed no line that place.pattern '" + p.pattern + "' matches");
}

double ExternalSimulator::printed_seconds(const driver::ProcessOutcome& outcome,
                                          std::uint64_t generations) const {
  const Description& d = *description_;
  const std::string& text = d.on_stderr ? outcome.stderr_tail : outcome.stdout_text;
  const std::string stream = d.on_stderr ? "standard error" : "standard output";
  if (text.size() >= kPrintedLimit) {
    throw Error(run_named(generations) + "printed more than " +
                std::to_string(kPrintedLimit >> 20) + " MiB on its " + stream +
                ", so its first time may be lost");
  }
  const std::regex pattern(d.pattern);
  std::vector<double> times;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, pattern) || !match[1].matched) continue;
    const std::string number = match[1].str();
    const auto value = read_number<double>(number);
    if (!value) {
      throw Error(run_named(generations) + "printed \"" + number + "\" where timing.pattern '" +
                  d.pattern + "' takes a number");
    }
    times.push_back(*value);
  }
  if (times.empty() || (d.take == Take::last_minus_first && times.size() < 2)) {
    throw Error(run_named(generations) + "printed " + (times.empty() ? "no line" : "one line") +
                " on its " + stream + " that timing.pattern '" + d.pattern + "' matches" +
                (d.take == Take::last_minus_first ? ", where it takes two" : ""));
  }
  const double value = d.take == Take::last ? times.back() : times.back() - times.front();
  if (!std::isfinite(value) || value <= 0) {
    throw Error(run_named(generations) + "printed a time of " + driver::format_number(value, 6) +
                ", where a positive one was expected");
  }
  return value * d.unit_s;
}

} // namespace lifebench::external
