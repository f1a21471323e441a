#include "bench_plan.hpp"

#include "lifebench/error.hpp"
#include "sweep_pattern.hpp"
#include "text.hpp"

#include <algorithm>
#include <iostream>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// "a, b, c and 4 more": the first three of `names`, in their order.
std::string some_of(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 3;
  if (names.size() <= kShown) return join(names, ", ");
  const std::vector<std::string> shown(names.begin(), names.begin() + kShown);
  return join(shown, ", ") + " and " + std::to_string(names.size() - kShown) + " more";
}

/// "; 3 results of configurations outside this run kept in the folder as they were", or "".
std::string outside_text(const Plan& plan) {
  if (plan.outside_count == 0) return {};
  return "; " + std::to_string(plan.outside_count) + " result" +
         (plan.outside_count == 1 ? "" : "s") +
         " of configurations outside this run kept in the folder as they were";
}

} // namespace

std::vector<SweepConfiguration> selected_configurations(const BenchOptions& options,
                                                        const Catalog& catalog) {
  std::vector<SweepConfiguration> configurations =
      expand(select_runs(options.sweeps, catalog), catalog);
  std::erase_if(configurations, [&](const SweepConfiguration& c) {
    return !glob_match(options.impl, c.experiment);
  });
  if (configurations.empty()) {
    throw Error("no configuration of the sweep is of an experiment matching --impl " +
                quote(options.impl, '\''));
  }
  resolve_patterns(configurations);
  return configurations;
}

bool runs_beside_others(const Experiment& e) {
  if (e.backend != "cuda") return false;
  return axis_with_role(e.axes, AxisRole::gpu_count) == nullptr &&
         axis_with_role(e.axes, AxisRole::host_folder) == nullptr;
}

bool still_valid(const nlohmann::json& previous, const SweepConfiguration& c,
                 const std::string& hash) {
  if (previous.value("binary_hash", "") != hash) return false;
  if (previous.value("status", "") == "unavailable") return false;
  const auto device = previous.find("device");
  const bool beside_others =
      device != previous.end() && device->is_object() && device->contains("cuda_visible_devices");
  if (beside_others && !runs_beside_others(*c.info)) return false;
  const auto timing = previous.find("timing");
  if (timing == previous.end()) return true;
  const auto number = [&](const char* key) {
    const auto it = timing->find(key);
    return it != timing->end() && it->is_number() ? it->get<double>() : -1.0;
  };
  return number("repetitions") >= c.stopping.min_repetitions && number("warmup") == c.warmup &&
         number("target_rel_ci") == c.stopping.target_rel_ci;
}

Plan make_plan(const std::vector<SweepConfiguration>& configurations, const ResultsFolder& folder) {
  Plan plan;
  for (const auto& c : configurations) {
    plan.ids.insert(c.name());
    if (!plan.hashes.contains(c.experiment)) {
      plan.experiments.push_back(c.experiment);
      plan.hashes[c.experiment] = binary_hash(c.info->measured_files());
    }
  }
  plan.outside_count = folder.count_outside(plan.ids);
  plan.kept.resize(configurations.size());
  plan.to_run.resize(configurations.size());
  plan.earlier_s.resize(configurations.size());
  for (std::size_t i = 0; i < configurations.size(); ++i) {
    const SweepConfiguration& c = configurations[i];
    const std::string& hash = plan.hashes.at(c.experiment);
    auto previous = folder.previous(c.experiment, c.name());
    if (previous && still_valid(*previous, c, hash)) {
      (*previous).erase("tag"); // the format before ties
      (*previous)["ties"] = c.ties_json();
      plan.kept[i] = std::move(previous);
      ++plan.kept_count;
      continue;
    }
    plan.to_run[i] = c.info->available;
    if (plan.to_run[i] && previous && string_at(*previous, "status") != "unavailable") {
      ++plan.again_count;
      if (string_at(*previous, "binary_hash") != hash) plan.rebuilt.insert(c.experiment);
    }
    if (previous && previous->contains("wall_s") && (*previous)["wall_s"].is_number()) {
      plan.earlier_s[i] = (*previous)["wall_s"].get<double>();
    }
  }
  return plan;
}

std::string progress_outcome(const nlohmann::json& result, std::optional<double> wall_s) {
  const std::string status = result.value("status", "failed");
  std::string text;
  if (status == "ok") {
    text = "ok";
    const auto throughput = result.find("throughput");
    if (throughput != result.end() && throughput->is_object() &&
        throughput->contains("cell_updates_per_second") &&
        (*throughput)["cell_updates_per_second"].is_number()) {
      text +=
          " " + format_number((*throughput)["cell_updates_per_second"].get<double>()) + " cells/s";
    }
  } else {
    text = status == "failed" ? "FAILED" : status;
    if (result.contains("reason") && result["reason"].is_string()) {
      text += ": " + result["reason"].get<std::string>();
    }
  }
  if (wall_s) text += " (" + format_number(*wall_s, 2) + " s)";
  return text;
}

void print_dry_run(const std::vector<SweepConfiguration>& configurations, const Plan& plan,
                   const std::vector<std::string>& gpus, const fs::path& out) {
  const std::size_t total = configurations.size();
  for (std::size_t i = 0; i < total; ++i) {
    const SweepConfiguration& c = configurations[i];
    std::cout << "[" << i + 1 << "/" << total << "] " << c.label();
    // The cells it would fill, to check a sweep's ties before spending device time.
    for (std::size_t t = 0; t < c.ties.size(); ++t) {
      std::cout << (t == 0 ? " → " : "; ") << c.ties[t].table << " / " << c.ties[t].row << " / "
                << c.ties[t].column;
    }
    if (plan.kept[i]) std::cout << " … done earlier: " << progress_outcome(*plan.kept[i], {});
    if (!c.info->available) std::cout << " … unavailable: " << c.info->reason;
    if (!gpus.empty() && plan.to_run[i] && !runs_beside_others(*c.info)) {
      std::cout << " … alone";
    }
    std::cout << "\n";
  }
  std::cout << "lifebench: dry run: " << total << " configurations (" << plan.kept_count
            << " done earlier) would go to " << out.string() << outside_text(plan)
            << "; nothing run or written" << std::endl;
}

std::string first_line(const Plan& plan, const fs::path& out) {
  std::string line = "lifebench: " + std::to_string(plan.kept.size()) + " configurations";
  if (plan.kept_count > 0) line += ", " + std::to_string(plan.kept_count) + " done earlier";
  if (plan.again_count > 0) {
    line += ", " + std::to_string(plan.again_count) + " to measure again";
    if (!plan.rebuilt.empty()) {
      std::vector<std::string> changed = plan.experiments; // in sweep order
      std::erase_if(changed, [&](const std::string& name) { return !plan.rebuilt.contains(name); });
      line += " (the binaries of " + some_of(changed) + " changed)";
    }
  }
  return line + outside_text(plan) + "; results in " + out.string();
}

} // namespace lifebench::driver
