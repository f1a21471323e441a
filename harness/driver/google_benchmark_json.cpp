#include "google_benchmark_json.hpp"

#include "lifebench/statistics.hpp"
#include "result_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>

namespace lifebench::driver {
namespace {

/// One timed repetition, in seconds.
struct Repetition {
  double real_s = 0;
  std::optional<double> cpu_s;
};

std::optional<double> seconds_per(const std::string& time_unit) {
  if (time_unit == "s") return 1.0;
  if (time_unit == "ms") return 1e-3;
  if (time_unit == "us") return 1e-6;
  if (time_unit == "ns") return 1e-9;
  return std::nullopt;
}

bool is_number(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number();
}

/// The repetitions of a result: from the experiment's own Google Benchmark entries, which
/// keep their order and CPU times, else from timing.seconds.
std::vector<Repetition> repetitions_of(const nlohmann::json& result) {
  std::vector<Repetition> repetitions;
  const auto entries = result.find("benchmark");
  if (entries != result.end() && entries->is_array()) {
    for (const auto& entry : *entries) {
      if (!entry.is_object() || string_at(entry, "run_type") != "iteration") continue;
      const auto unit = seconds_per(string_at(entry, "time_unit"));
      if (!unit || !is_number(entry, "real_time")) continue;
      Repetition repetition{entry["real_time"].get<double>() * *unit, std::nullopt};
      if (is_number(entry, "cpu_time")) repetition.cpu_s = entry["cpu_time"].get<double>() * *unit;
      repetitions.push_back(repetition);
    }
  }
  if (!repetitions.empty()) return repetitions;
  const auto timing = result.find("timing");
  if (timing == result.end() || !timing->is_object()) return repetitions;
  const auto seconds = timing->find("seconds");
  if (seconds == timing->end() || !seconds->is_array()) return repetitions;
  for (const auto& s : *seconds) {
    if (s.is_number()) repetitions.push_back({s.get<double>(), std::nullopt});
  }
  return repetitions;
}

/// The value of one aggregate; "cv" is a fraction, the others seconds.
double aggregate(const std::string& name, const std::vector<double>& values) {
  if (name == "mean") return statistics::mean(values);
  if (name == "median") return statistics::median(values);
  if (name == "stddev") return statistics::stddev(values);
  return statistics::cv(values);
}

/// The entries of one configuration: its repetitions, then their aggregates.
void add_benchmark(nlohmann::json& benchmarks, const std::string& name, std::size_t family,
                   const std::vector<Repetition>& repetitions) {
  const bool cpu = std::all_of(repetitions.begin(), repetitions.end(),
                               [](const Repetition& r) { return r.cpu_s.has_value(); });
  const auto entry = [&](const std::string& entry_name, const std::string& run_type) {
    return nlohmann::json{
        {"name", entry_name}, {"family_index", family}, {"per_family_instance_index", 0},
        {"run_name", name},   {"run_type", run_type},   {"repetitions", repetitions.size()},
        {"threads", 1},       {"time_unit", "ms"}};
  };
  std::vector<double> real;
  std::vector<double> cpu_times;
  for (std::size_t i = 0; i < repetitions.size(); ++i) {
    nlohmann::json repetition = entry(name, "iteration");
    repetition["repetition_index"] = i;
    repetition["iterations"] = 1;
    repetition["real_time"] = repetitions[i].real_s * 1e3;
    real.push_back(repetitions[i].real_s);
    if (cpu) {
      repetition["cpu_time"] = *repetitions[i].cpu_s * 1e3;
      cpu_times.push_back(*repetitions[i].cpu_s);
    }
    benchmarks.push_back(std::move(repetition));
  }
  if (repetitions.size() < 2) return; // as Google Benchmark: no aggregates of one repetition
  for (const std::string aggregate_name : {"mean", "median", "stddev", "cv"}) {
    const bool fraction = aggregate_name == "cv";
    const double scale = fraction ? 1.0 : 1e3;
    nlohmann::json summary = entry(name + "_" + aggregate_name, "aggregate");
    summary["aggregate_name"] = aggregate_name;
    summary["aggregate_unit"] = fraction ? "percentage" : "time";
    summary["iterations"] = repetitions.size();
    summary["real_time"] = aggregate(aggregate_name, real) * scale;
    if (cpu) summary["cpu_time"] = aggregate(aggregate_name, cpu_times) * scale;
    benchmarks.push_back(std::move(summary));
  }
}

nlohmann::json context_of(const nlohmann::json& manifest) {
  const auto section = [&](const char* key) {
    const auto it = manifest.find(key);
    return it != manifest.end() && it->is_object() ? *it : nlohmann::json::object();
  };
  const nlohmann::json host = section("host");
  const nlohmann::json build = section("build");
  std::string build_type = string_at(build, "build_type");
  std::transform(build_type.begin(), build_type.end(), build_type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return {
      {"date", string_at(manifest, "started")},
      {"host_name", string_at(host, "hostname")},
      {"executable", "lifebench bench"},
      {"num_cpus", is_number(host, "logical_cores") ? host["logical_cores"] : nlohmann::json(0)},
      {"library_build_type", build_type},
      {"json_schema_version", 1},
      {"lifebench_run_id", string_at(manifest, "run_id")},
      {"lifebench_git_commit", string_at(build, "git_commit")}};
}

} // namespace

nlohmann::json google_benchmark_json(const nlohmann::json& manifest,
                                     const std::vector<const nlohmann::json*>& results) {
  nlohmann::json benchmarks = nlohmann::json::array();
  std::size_t family = 0;
  for (const nlohmann::json* result : results) {
    if (!verified(*result)) continue;
    const auto config_id = result->find("config_id");
    if (config_id == result->end() || !config_id->is_string()) continue;
    const std::vector<Repetition> repetitions = repetitions_of(*result);
    if (repetitions.empty()) continue;
    add_benchmark(benchmarks, config_id->get<std::string>(), family++, repetitions);
  }
  return {{"context", context_of(manifest)}, {"benchmarks", benchmarks}};
}

} // namespace lifebench::driver
