#include "checks.hpp"
#include "commands.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/universe.hpp"
#include "run_input.hpp"
#include "run_time.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <utility>

namespace lifebench::harness {
namespace {

Problem soup_problem(const SoupSpec& soup, const std::optional<std::string>& rule_text,
                     const std::string& family) {
  const std::string default_rule =
      family == "hex" ? "B2/S34H" : (family == "3d" ? "B6/S567/3D" : "B3/S23");
  const RuleSpec spec = parse_rule_spec(rule_text.value_or(default_rule));
  if (spec.shape && *spec.shape != soup.shape) {
    throw Error("the rule's bounded grid " + spec.shape->to_string() +
                " differs from the soup's shape " + soup.shape.to_string());
  }
  return Problem{spec.rule, soup.shape, spec.boundary};
}

/// Where `run --soup` writes the soup that it then advances into `output`: named as the
/// output's temporaries are, so that a killed run's is removed as theirs.
std::filesystem::path soup_start_for(const std::filesystem::path& output) {
  return output.parent_path() / ("." + output.filename().string() + ".tmp-soup");
}

/// The files whose temporaries killed runs leave beside `output` (each up to a whole
/// universe): the output's and a soup's start's.
std::array<std::filesystem::path, 2> leftovers_of(const std::filesystem::path& output) {
  return {output, soup_start_for(output)};
}

void remove_leftovers_beside(const std::filesystem::path& output) {
  for (const auto& file : leftovers_of(output))
    remove_temporaries_beside(file);
}

/// Whether remove_leftovers_beside(output) would remove `file`.
bool is_leftover_beside(const std::filesystem::path& file, const std::filesystem::path& output) {
  return std::ranges::any_of(leftovers_of(output),
                             [&](const auto& owner) { return is_temporary_beside(file, owner); });
}

double seconds_since(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

/// The generation `generations` after `start`; throws if it does not fit in 64 bits, before
/// anything is simulated (a file's generation near 2^64 would wrap).
std::uint64_t generation_after(std::uint64_t start, std::uint64_t generations) {
  if (generations > std::numeric_limits<std::uint64_t>::max() - start) {
    throw Error("generation " + std::to_string(start) + " + " + std::to_string(generations) +
                " does not fit in 64 bits");
  }
  return start + generations;
}

/// Throws unless `info` can run `problem` here and `output`'s format can hold it: checked
/// before anything large is made or simulated.
void require_runnable(const ExperimentInfo& info, const Params& params, const Problem& problem,
                      const std::filesystem::path& output) {
  require_available(info);
  require_supported(info, problem, params);
  require_writable(output, problem);
}

/// Whether `run` streams universe files, never holding the universe whole: a universe file
/// (.lbu) out, from a universe file in (without --rule, which would change its rule) or a soup,
/// by an experiment that advances universe files; or a soup written unadvanced into one, a
/// conversion any experiment makes.
bool is_streamed(const ExperimentInfo& info, const RunRequest& request) {
  if (!is_universe_file(request.output)) return false;
  if (request.soup) return info.advance_universe_file || request.generations == 0;
  return info.advance_universe_file && !request.rule && is_universe_file(*request.input);
}

/// Removes a file when it goes out of scope, or when a signal ends the run.
class RemovedAtEnd {
public:
  explicit RemovedAtEnd(std::filesystem::path path)
      : path_(std::move(path)), on_interrupt_(path_) {}
  RemovedAtEnd(const RemovedAtEnd&) = delete;
  RemovedAtEnd& operator=(const RemovedAtEnd&) = delete;
  ~RemovedAtEnd() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }

private:
  std::filesystem::path path_;
  TemporaryInProgress on_interrupt_;
};

/// Writes the soup that a streamed run advances into `output` beside it, hidden.
std::filesystem::path write_soup_start(const std::filesystem::path& output, const Problem& problem,
                                       const SoupSpec& soup) {
  std::filesystem::path start = soup_start_for(output);
  try {
    write_soup_universe(start, problem, soup);
  } catch (const Error& e) {
    // The message names the file asked for, which needs the same room (a full disk, a file
    // size limit).
    std::string message = e.what();
    if (const auto at = message.find(start.string()); at != std::string::npos) {
      message.replace(at, start.string().size(), output.string());
    }
    throw Error(message);
  }
  return start;
}

/// The run's identity, which every pass it writes carries (UniverseHeader::origin): a hash of
/// its input (the whole file, header and rows, or the soup asked for), the experiment and its
/// parameters. A run resumes only from a file of its own identity: one made from another
/// input, or with other parameters, is refused (the target generation is not part of it, so
/// that a stopped run goes on to any later one).
std::uint64_t run_origin(const ExperimentInfo& info, const Params& params,
                         const RunRequest& request) {
  const std::string text =
      info.about.name + "\n" + params.to_string() + "\n" +
      (request.soup ? "soup " + *request.soup + " " + request.rule.value_or(std::string())
                    : std::string("file"));
  const std::uint64_t input = request.soup ? 0 : UniverseReader(*request.input).content_hash();
  return universe_origin(input, text);
}

std::string hex16(std::uint64_t value) {
  std::array<char, 17> text{};
  std::snprintf(text.data(), text.size(), "%016llx", static_cast<unsigned long long>(value));
  return text.data();
}

/// Throws unless `done`, the output a stopped run left, is of the run `origin` names.
void require_same_run(const UniverseHeader& done, std::uint64_t origin,
                      const std::filesystem::path& output) {
  if (!done.origin) {
    throw Error("cannot resume from " + output.string() +
                ": it holds no record of the run that wrote it (a file a run streamed holds "
                "one, with its input and parameters)");
  }
  if (*done.origin != origin) {
    throw Error("cannot resume from " + output.string() +
                ": a run from another input, or with other parameters, wrote it (its origin " +
                hex16(*done.origin) + ", this run's " + hex16(origin) + ")");
  }
}

/// `params` with the experiment's universe-file folder (AxisRole::host_folder) set to
/// `output`'s: a streamed run writes its passes beside the output, so that is the folder whose
/// free space its checks must see.
Params beside(const ExperimentInfo& info, const Params& params,
              const std::filesystem::path& output) {
  const Axis* folder = axis_with_role(info.axes, AxisRole::host_folder);
  if (folder == nullptr) return params;
  auto values = params.values();
  values[folder->name] = std::filesystem::absolute(output).parent_path().string();
  return Params(std::move(values));
}

/// `run` that streams (is_streamed), from the input universe file or from a soup written a row
/// at a time. With `resume`, a universe `output` that this very run wrote (run_origin: the
/// same input and parameters) of the same problem between the input's generation and the
/// target is where it goes on from.
void run_streamed(const ExperimentInfo& info, const Params& params, const RunRequest& request) {
  const std::filesystem::path output = request.output;
  std::optional<SoupSpec> soup;
  UniverseHeader start;
  if (request.soup) {
    soup = parse_soup(*request.soup);
    start = UniverseHeader{soup_problem(*soup, request.rule, info.about.family), 0};
  } else {
    start = UniverseReader(*request.input).header();
  }
  require_runnable(info, beside(info, params, output), start.problem, output);
  const std::uint64_t target = generation_after(start.generation, request.generations);
  std::error_code error;
  const bool in_place = !soup && std::filesystem::equivalent(*request.input, output, error);
  if (request.resume && in_place) {
    throw Error("--resume needs an --output other than the --input: a run in place has "
                "no record of where it started");
  }
  const std::uint64_t origin = run_origin(info, params, request);
  remove_leftovers_beside(output);
  std::optional<std::filesystem::path> from; // none: the soup
  if (!soup) from = *request.input;
  std::uint64_t left = request.generations;
  if (request.resume && std::filesystem::exists(output)) {
    const UniverseHeader done = UniverseReader(output).header();
    if (done.problem != start.problem || done.generation < start.generation ||
        done.generation > target) {
      throw Error("cannot resume from " + output.string() + ": it holds " +
                  done.problem.to_string() + " at generation " + std::to_string(done.generation) +
                  ", not " + start.problem.to_string() + " between generations " +
                  std::to_string(start.generation) + " and " + std::to_string(target));
    }
    require_same_run(done, origin, output);
    std::cerr << "resuming from generation " << done.generation << " in " << output.string()
              << "\n";
    from = output;
    left = target - done.generation;
  }
  if (left == 0) { // nothing to advance: a copy, streamed
    if (soup) {
      write_soup_universe(output, start.problem, *soup);
    } else if (*from != output && !in_place) {
      std::ifstream in(*from, std::ios::binary);
      if (!in) throw Error("cannot read " + from->string());
      write_file_atomically(output, [&](std::ostream& out) { out << in.rdbuf(); });
    }
    return;
  }
  std::optional<RemovedAtEnd> soup_start;
  if (soup) {
    from = write_soup_start(output, start.problem, *soup);
    soup_start.emplace(*from);
  }
  const auto began = std::chrono::steady_clock::now();
  info.advance_universe_file(*from, output, left, params, origin);
  print_run_time(std::cerr, info.about.name, start.problem, left, seconds_since(began),
                 "steady_clock, with the file's reads and writes");
}

} // namespace

void run(const ExperimentInfo& info, const Params& params, const RunRequest& request) {
  if (request.input && is_leftover_beside(*request.input, request.output)) {
    throw Error("--input " + *request.input + " is named as a killed run's leftover beside " +
                request.output + ", which the run removes: rename it");
  }
  const bool streamed = is_streamed(info, request);
  if (request.resume && !(streamed && request.input)) {
    throw Error("--resume needs an experiment that streams universe files, a .lbu --input and "
                "--output, and no --rule");
  }
  if (streamed) {
    run_streamed(info, params, request);
    return;
  }
  State state = [&] {
    if (request.input) {
      State read = read_run_input(info, params, request);
      require_runnable(info, params, read.problem, request.output);
      return read;
    }
    const SoupSpec soup = parse_soup(*request.soup);
    const Problem problem = soup_problem(soup, request.rule, info.about.family);
    require_runnable(info, params, problem, request.output); // before the grid is made
    require_room_to_run("--soup " + *request.soup, problem);
    return State{problem, make_soup(soup), 0};
  }();
  const std::uint64_t target = generation_after(state.generation, request.generations);
  remove_leftovers_beside(request.output);
  auto simulator = info.make(state.problem, params);
  simulator->upload(state.grid);
  state.grid = Grid(); // the simulator holds it now: one copy fewer while it runs
  const double seconds = simulator->timed_advance(request.generations);
  state.grid = simulator->download();
  state.generation = target;
  write_state(request.output, state);
  print_run_time(std::cerr, info.about.name, state.problem, request.generations, seconds,
                 simulator->clock());
}

} // namespace lifebench::harness
