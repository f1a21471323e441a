// lifebench compare OLD NEW: the configurations two results folders both measured, side by
// side, each with the ratio of their median times, its interval from the two medians'
// intervals, and a verdict against that noise (after nvbench_compare: a difference within the
// noise is "same"), with a Mann–Whitney U test over the repetition times where their numbers
// allow it. Direction and significance both come from the seconds.
#include "commands.hpp"
#include "lifebench/cli.hpp"
#include "lifebench/configuration.hpp"
#include "lifebench/error.hpp"
#include "lifebench/statistics.hpp"
#include "results.hpp"
#include "text.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// A results folder as `lifebench bench` left it.
struct RecordedRun {
  std::string name; ///< as given on the command line
  nlohmann::json manifest;
  std::map<std::string, nlohmann::json> results; ///< config_id → result, every experiment's
};

nlohmann::json read_manifest(const std::string& dir) {
  const fs::path path(dir);
  std::error_code error;
  if (!fs::exists(path, error)) throw Error("results folder " + dir + " does not exist");
  if (!fs::is_directory(path, error)) throw Error(dir + " is not a folder");
  if (fs::is_empty(path, error)) throw Error("results folder " + dir + " is empty");
  if (!fs::exists(path / kManifestFile, error)) {
    throw Error(dir + " is not a results folder: it has no " + kManifestFile);
  }
  return read_json_object(path / kManifestFile);
}

/// What compare keeps of a result: not its Google Benchmark entries (a record each
/// repetition, most of a results file) nor its standard error's tail, so that its memory
/// follows the configurations compared rather than the files' size.
bool kept_for_comparison(int /*depth*/, nlohmann::json::parse_event_t event,
                         nlohmann::json& parsed) {
  return event != nlohmann::json::parse_event_t::key ||
         (parsed != "benchmark" && parsed != "stderr_tail");
}

/// Keeps benchmarks.json's top level only: the file is read to know it is whole.
bool top_level_only(int depth, nlohmann::json::parse_event_t event, nlohmann::json& /*parsed*/) {
  using Event = nlohmann::json::parse_event_t;
  return depth < 2 ||
         (event != Event::object_start && event != Event::array_start && event != Event::value);
}

/// Reads a run whose manifest is read and of our schema; its benchmarks.json, when it has
/// one, must be whole: a damaged file means a damaged folder.
RecordedRun read_run(const std::string& dir, nlohmann::json manifest) {
  RecordedRun run{dir, std::move(manifest), {}};
  for (auto& [experiment, by_id] : read_recorded_results(dir, false, kept_for_comparison)) {
    for (auto& [id, result] : by_id)
      run.results[id] = std::move(result);
  }
  const fs::path benchmarks = fs::path(dir) / kBenchmarksFile;
  std::error_code error;
  if (fs::exists(benchmarks, error)) {
    const nlohmann::json document = read_json_object(benchmarks, top_level_only);
    if (!document.contains("benchmarks") || !document["benchmarks"].is_array()) {
      throw Error(benchmarks.string() + " is not Google Benchmark JSON: it has no benchmarks list");
    }
  }
  return run;
}

/// Both runs, refused unless they are results folders of our schema.
std::pair<RecordedRun, RecordedRun> read_runs(const std::string& old_dir,
                                              const std::string& new_dir) {
  nlohmann::json old_manifest = read_manifest(old_dir);
  nlohmann::json new_manifest = read_manifest(new_dir);
  // As JSON values, so that 1 and 1.0 are one schema.
  const auto schema = [](const nlohmann::json& manifest) {
    return manifest.contains("schema") ? manifest["schema"] : nlohmann::json("none");
  };
  if (schema(old_manifest) != schema(new_manifest)) {
    throw Error(old_dir + " and " + new_dir + " are of different results schemas (" +
                schema(old_manifest).dump() + " and " + schema(new_manifest).dump() + ")");
  }
  check_schema(fs::path(old_dir) / kManifestFile, old_manifest);
  check_schema(fs::path(new_dir) / kManifestFile, new_manifest);
  return {read_run(old_dir, std::move(old_manifest)), read_run(new_dir, std::move(new_manifest))};
}

std::optional<double> rate_of(const nlohmann::json& result) {
  const auto throughput = result.find("throughput");
  if (throughput == result.end() || !throughput->is_object()) return std::nullopt;
  const auto rate = throughput->find("cell_updates_per_second");
  if (rate == throughput->end() || !rate->is_number() || !(rate->get<double>() > 0)) {
    return std::nullopt;
  }
  return rate->get<double>();
}

/// The shortest and longest repetitions a result may record: the clock's nanosecond, and 31
/// years. Beyond them, a ratio of two times may no longer be a finite number.
constexpr double kShortestSeconds = 1e-9;
constexpr double kLongestSeconds = 1e9;

/// The repetition times of a result, refused unless each is a number of seconds from
/// kShortestSeconds to kLongestSeconds: a time of 0 or less is a damaged file, and would turn
/// a ratio's sign or divide by zero.
std::vector<double> seconds_of(const std::string& dir, const std::string& id,
                               const nlohmann::json& result) {
  std::vector<double> seconds;
  const auto timing = result.find("timing");
  if (timing == result.end() || !timing->is_object()) return seconds;
  const auto list = timing->find("seconds");
  if (list == timing->end() || !list->is_array()) return seconds;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& s = (*list)[i];
    if (!s.is_number() ||
        !(s.get<double>() >= kShortestSeconds && s.get<double>() <= kLongestSeconds)) {
      const std::string file =
          (fs::path(dir) / (string_at(result, "experiment") + ".json")).string();
      throw Error(file + ": configuration " + id + ": timing.seconds[" + std::to_string(i) +
                  "] is " + (s.is_number() ? s.dump() : std::string("a ") + s.type_name()) +
                  ", not a number of seconds from 1e-9 to 1e9");
    }
    seconds.push_back(s.get<double>());
  }
  return seconds;
}

/// `value` with `decimals` digits after the point: ratios read best as 0.85, 1.00, 12.30.
std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(decimals);
  out << value;
  return out.str();
}

/// "verification failed: cell (3, 7) …", "unsupported: width …": why a result has no rate.
std::string not_measured(const nlohmann::json& result) {
  const std::string status = string_at(result, "status");
  if (status == "ok") return "not verified";
  const std::string reason = string_at(result, "reason");
  return (status.empty() ? "no status" : status) + (reason.empty() ? "" : ": " + reason);
}

/// The id's parameters, with its density if it gives one, or "-".
std::string params_text(const std::vector<std::string>& parts) {
  std::string text = parts[3];
  for (std::size_t i = 4; i < parts.size(); ++i)
    text += (text.empty() ? "" : ",") + parts[i];
  return text.empty() ? "-" : text;
}

/// The device a result was measured on: its own device's name, else its run's host CPU.
std::optional<std::string> device_of(const RecordedRun& run, const nlohmann::json& result) {
  const auto device = result.find("device");
  if (device != result.end() && device->is_object() && device->contains("name") &&
      (*device)["name"].is_string()) {
    return (*device)["name"].get<std::string>();
  }
  const auto host = run.manifest.find("host");
  if (host != run.manifest.end() && host->is_object() && host->contains("cpu") &&
      (*host)["cpu"].is_string()) {
    return (*host)["cpu"].get<std::string>();
  }
  return std::nullopt;
}

/// The devices one run measured the given configurations on: those both runs measured, so that
/// what only one run holds (a GPU sweep's configurations beside a CPU sweep's) does not count.
std::set<std::string> devices_of(const RecordedRun& run, const std::set<std::string>& ids) {
  std::set<std::string> devices;
  for (const auto& id : ids) {
    if (auto device = device_of(run, run.results.at(id))) devices.insert(std::move(*device));
  }
  return devices;
}

/// What matches a result of the other run: its id with the parameters the result records it
/// ran with, defaults included, so that a parameter given at its default (steps_per_launch=8)
/// and the same left out are one configuration. The id itself where it records none.
std::string matching_key(const std::string& id, const nlohmann::json& result) {
  const auto params = result.find("params");
  if (params == result.end() || !params->is_object()) return id;
  std::vector<std::string> parts = name_fields(id);
  if (parts.size() < 4) return id;
  std::vector<std::string> given;
  for (const auto& [name, value] : params->items()) // sorted: nlohmann::json keeps a std::map
    given.push_back(name + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  parts[3] = join(given, ",");
  return join(parts, "|");
}

/// The ids of `run` by matching_key(), where one id has the key.
std::map<std::string, std::string> ids_by_key(const RecordedRun& run) {
  std::map<std::string, std::string> ids;
  std::set<std::string> shared;
  for (const auto& [id, result] : run.results) {
    const std::string key = matching_key(id, result);
    if (!ids.emplace(key, id).second) shared.insert(key);
  }
  for (const auto& key : shared)
    ids.erase(key);
  return ids;
}

struct Row {
  std::vector<std::string> cells; ///< experiment, problem, generations, params, old, new, speedup
  std::string verdict;
  std::string counted; ///< the summary's word for it
  bool regression = false;
};

/// "1.234 [1.201, 1.262]": a ratio and its interval, to a thousandth so that the small
/// differences GPU clocks resolve show.
std::string ratio_text(const statistics::Ratio& ratio) {
  return fixed(ratio.value, 3) + " [" + fixed(ratio.interval.low, 3) + ", " +
         fixed(ratio.interval.high, 3) + "]";
}

/// The verdict on OLD / NEW median time from both sides' repetition times (each at least two):
/// faster or slower when the ratio's interval excludes 1 (the two medians' intervals are
/// apart) and, where the numbers of repetitions let it reach `alpha`, the U test agrees;
/// else the same within the noise.
void judge(Row& row, const std::vector<double>& old_seconds, const std::vector<double>& new_seconds,
           const statistics::Ratio& speedup, double alpha) {
  const bool apart = speedup.interval.low > 1 || speedup.interval.high < 1;
  std::string tested = std::to_string(old_seconds.size()) + " vs " +
                       std::to_string(new_seconds.size()) +
                       " repetitions, interval level >= " + fixed(speedup.interval.level, 2);
  bool significant = apart;
  const double p = statistics::mann_whitney_u(old_seconds, new_seconds).p;
  if (statistics::smallest_p(old_seconds.size(), new_seconds.size()) <= alpha) {
    significant = apart && p <= alpha;
    tested += "; p = " + format_number(p);
  } else {
    tested +=
        "; p = " + format_number(p) + ": too few repetitions for p <= " + format_number(alpha);
  }
  row.counted = !significant ? "same" : speedup.value > 1 ? "faster" : "slower";
  row.verdict = row.counted + (significant ? "" : " within the noise") + " (" + tested + ")";
}

/// One configuration of both runs: `old_id` in OLD, `new_id` in NEW (the same id, or one
/// that names a default the other leaves out), shown by its NEW id.
Row compare_one(const std::string& old_id, const RecordedRun& old_run,
                const nlohmann::json& old_result, const std::string& new_id,
                const RecordedRun& new_run, const nlohmann::json& new_result,
                const CompareOptions& options) {
  const auto parts = name_fields(new_id);
  Row row{{parts[0], parts[1], parts[2], params_text(parts), "-", "-", "-"}, "", "", false};
  const auto old_rate = rate_of(old_result);
  const auto new_rate = rate_of(new_result);
  const bool old_ok = verified(old_result) && old_rate;
  const bool new_ok = verified(new_result) && new_rate;
  if (old_ok) row.cells[4] = format_number(*old_rate);
  if (new_ok) row.cells[5] = format_number(*new_rate);
  if (!old_ok || !new_ok) {
    row.counted = "not compared";
    row.verdict = "not compared: " + (old_ok ? std::string() : "OLD " + not_measured(old_result)) +
                  (!old_ok && !new_ok ? "; " : "") +
                  (new_ok ? std::string() : "NEW " + not_measured(new_result));
    // A configuration that passed before and fails now is worse than slower.
    row.regression = old_ok && string_at(new_result, "status") == "failed";
    return row;
  }
  const auto old_seconds = seconds_of(old_run.name, old_id, old_result);
  const auto new_seconds = seconds_of(new_run.name, new_id, new_result);
  if (old_seconds.empty() || new_seconds.empty()) {
    row.counted = "untested";
    row.verdict = "untested: no repetition times recorded";
    return row;
  }
  const statistics::Ratio speedup = statistics::median_ratio(old_seconds, new_seconds);
  row.cells[6] = ratio_text(speedup);
  if (old_seconds.size() < 2 || new_seconds.size() < 2) {
    // One repetition measures no noise: the ratio alone is all there is to judge.
    row.counted = "no noise measured";
    row.verdict = row.counted + " (" + std::to_string(old_seconds.size()) + " vs " +
                  std::to_string(new_seconds.size()) + " repetitions)";
  } else {
    judge(row, old_seconds, new_seconds, speedup, options.alpha);
  }
  const double slower_pct = (1 / speedup.value - 1) * 100; // more time for the same updates
  row.regression = (row.counted == "slower" || row.counted == "no noise measured") &&
                   options.fail_on_regression_pct && slower_pct > *options.fail_on_regression_pct;
  return row;
}

void print_table(const std::vector<Row>& rows) {
  std::vector<std::string> header{
      "EXPERIMENT",  "PROBLEM",           "GENS", "PARAMS", "OLD cells/s",
      "NEW cells/s", "SPEEDUP [interval]"};
  std::vector<std::size_t> widths(header.size());
  std::transform(header.begin(), header.end(), widths.begin(),
                 [](const std::string& title) { return title.size(); });
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < widths.size(); ++i)
      widths[i] = std::max(widths[i], row.cells[i].size());
  }
  const auto print = [&](const std::vector<std::string>& cells, const std::string& verdict) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::cout << cells[i] << std::string(widths[i] - cells[i].size() + 2, ' ');
    std::cout << verdict << "\n";
  };
  print(header, "VERDICT");
  for (const auto& row : rows)
    print(row.cells, row.verdict);
}

void print_only_in(const std::string& which, const std::vector<std::string>& ids) {
  if (ids.empty()) return;
  std::cout << "\nonly in " << which << " (" << ids.size() << "):\n";
  for (const auto& id : ids) {
    const auto parts = name_fields(id);
    std::cout << "  " << parts[0] << " " << parts[1] << " " << parts[2] << " " << params_text(parts)
              << "\n";
  }
}

/// A percentage: a finite number from 0 up, in decimal form.
CLI::Validator percentage() {
  return {[](const std::string& text) -> std::string {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (!text.empty() && error == std::errc{} && stop == end && std::isfinite(value) &&
                value >= 0) {
              return {};
            }
            return "expected a percentage (a number from 0 up), not \"" + text + "\"";
          },
          "PCT"};
}

} // namespace

void add_compare_options(CLI::App& command, CompareOptions& options) {
  command
      .add_option("OLD", options.old_dir, "Results folder before (e.g. results/reference/<device>)")
      ->required();
  command.add_option("NEW", options.new_dir, "Results folder after")->required();
  command
      .add_option("--fail-on-regression", options.fail_on_regression_pct,
                  "Exit with status 1 when a configuration verified in both is slower beyond "
                  "its noise by more than PCT percent of its median time (with one repetition "
                  "a side, by the ratio alone), or fails in NEW where OLD passed")
      ->check(percentage());
  command
      .add_option("--alpha", options.alpha,
                  "Significance level of the U test, where the repetitions let it reach it "
                  "(3 vs 3 wholly apart give p = 0.1 at best, 4 vs 4 0.029, 5 vs 5 0.008)")
      ->capture_default_str()
      ->check(open_fraction());
}

int compare_command(const CompareOptions& options) {
  const auto [old_run, new_run] = read_runs(options.old_dir, options.new_dir);
  if (old_run.results.empty() && new_run.results.empty()) {
    throw Error(options.old_dir + " and " + options.new_dir + " record no configuration");
  }
  std::vector<Row> rows;
  std::vector<std::string> only_old;
  std::vector<std::string> only_new;
  std::map<std::string, std::size_t> counts;
  // The same id, else the same parameters once defaults are filled in (matching_key()).
  const std::map<std::string, std::string> new_by_key = ids_by_key(new_run);
  std::set<std::string> matched; ///< NEW's ids compared
  std::set<std::string> old_compared;
  for (const auto& [id, old_result] : old_run.results) {
    std::string new_id = id;
    if (!new_run.results.contains(id)) {
      const auto key = new_by_key.find(matching_key(id, old_result));
      if (key == new_by_key.end() || old_run.results.contains(key->second) ||
          matched.contains(key->second)) {
        only_old.push_back(id);
        continue;
      }
      new_id = key->second;
    }
    matched.insert(new_id);
    old_compared.insert(id);
    rows.push_back(
        compare_one(id, old_run, old_result, new_id, new_run, new_run.results.at(new_id), options));
    ++counts[rows.back().counted];
  }
  for (const auto& [id, result] : new_run.results) {
    if (!matched.contains(id)) only_new.push_back(id);
  }

  const auto old_devices = devices_of(old_run, old_compared);
  const auto new_devices = devices_of(new_run, matched);
  if (old_devices != new_devices) {
    std::cerr << "lifebench: warning: the runs measured different devices ("
              << join(std::vector<std::string>(old_devices.begin(), old_devices.end())) << "; "
              << join(std::vector<std::string>(new_devices.begin(), new_devices.end()))
              << "): the ratios compare the machines as well as the code\n";
  }

  std::cout << "OLD: " << options.old_dir << "\nNEW: " << options.new_dir << "\n\n";
  if (!rows.empty()) print_table(rows);
  print_only_in("OLD", only_old);
  print_only_in("NEW", only_new);
  std::vector<std::string> summary;
  for (const char* word :
       {"faster", "slower", "same", "no noise measured", "untested", "not compared"}) {
    if (counts[word] > 0) summary.push_back(std::to_string(counts[word]) + " " + word);
  }
  std::cout << "\nlifebench: " << rows.size() << " configurations in both"
            << (summary.empty() ? "" : ": " + join(summary)) << "; " << only_old.size()
            << " only in OLD, " << only_new.size() << " only in NEW" << std::endl;

  if (!options.fail_on_regression_pct) return 0;
  const auto regressions =
      std::count_if(rows.begin(), rows.end(), [](const Row& row) { return row.regression; });
  if (regressions == 0) return 0;
  std::cerr << "lifebench: regression: " << regressions << " configuration"
            << (regressions == 1 ? "" : "s") << " slower beyond the noise by more than "
            << format_number(*options.fail_on_regression_pct) << " % or failing in NEW\n";
  return kExitFailed;
}

} // namespace lifebench::driver
