#include "discovery.hpp"

#include "lifebench/error.hpp"
#include "process.hpp"
#include "text.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace lifebench::driver {
std::filesystem::path program_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path();
}

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPrefix = "lifebench-exp-";
constexpr double kDescribeTimeLimitS = 20; // a CUDA runtime may take seconds to initialise
constexpr unsigned kParallelDescribes = 8;

/// An executable named `lifebench-exp-<name>`, not yet described.
struct Candidate {
  std::string name;
  std::filesystem::path binary;
};

std::string string_field(const nlohmann::json& json, const char* key, bool required) {
  const auto it = json.find(key);
  if (it == json.end() || it->is_null()) {
    if (required) throw Error(std::string("no \"") + key + "\"");
    return {};
  }
  if (!it->is_string()) throw Error(std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

/// A scalar as text: axis defaults may be written as numbers.
std::string scalar_text(const nlohmann::json& value, const std::string& what) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_boolean()) return value.dump();
  throw Error(what + " is not a string or an integer");
}

Experiment parse_description(const Candidate& candidate, const std::string& text) {
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) throw Error("describe printed no JSON object");
  Experiment e;
  e.name = string_field(json, "name", true);
  if (e.name != candidate.name) {
    throw Error("it describes itself as " + quote(e.name, '\'') + ", its file name says " +
                quote(candidate.name, '\''));
  }
  e.binary = candidate.binary;
  e.family = string_field(json, "family", true);
  e.backend = string_field(json, "backend", true);
  e.source = string_field(json, "source", false);
  e.technique = string_field(json, "technique", false);
  if (json.contains("axes")) {
    const auto& axes = json.at("axes");
    if (!axes.is_array()) throw Error("\"axes\" is not an array");
    for (const auto& item : axes) {
      if (!item.is_object()) throw Error("an axis is not an object");
      Axis axis;
      axis.name = string_field(item, "name", true);
      if (item.contains("default")) axis.default_value = scalar_text(item.at("default"), "default");
      axis.description = string_field(item, "description", false);
      try {
        axis.role = parse_axis_role(string_field(item, "role", false));
      } catch (const Error& error) {
        throw Error("axis " + axis.name + ": " + error.what());
      }
      if (item.contains("allowed")) {
        if (!item.at("allowed").is_array()) throw Error("axis " + axis.name + ": bad \"allowed\"");
        for (const auto& value : item.at("allowed")) {
          axis.allowed.push_back(scalar_text(value, "axis " + axis.name + ": an allowed value"));
        }
      }
      e.axes.push_back(std::move(axis));
    }
  }
  if (const auto external = json.find("external"); external != json.end()) {
    if (!external->is_object()) throw Error("\"external\" is not an object");
    for (const auto& [key, value] : external->items()) {
      if (!value.is_string()) throw Error("external \"" + key + "\" is not a string");
      e.external[key] = value.get<std::string>();
    }
  }
  const auto available = json.find("available");
  if (available == json.end() || !available->is_boolean()) throw Error("no boolean \"available\"");
  e.available = available->get<bool>();
  if (!e.available) {
    e.reason = string_field(json, "reason", false);
    if (e.reason.empty()) e.reason = "no reason given";
  }
  return e;
}

/// Describes one candidate; the error message says why it could not.
Experiment describe(const Candidate& candidate) {
  ProcessRequest request;
  request.argv = {candidate.binary.string(), "describe"};
  request.time_limit_s = kDescribeTimeLimitS;
  request.grace_s = 2;
  const ProcessOutcome outcome = run_process(request);
  if (!outcome.succeeded()) {
    throw Error("describe failed: " + outcome.failure(kDescribeTimeLimitS));
  }
  try {
    return parse_description(candidate, outcome.stdout_text);
  } catch (const Error& error) {
    throw Error(std::string("bad describe output: ") + error.what());
  }
}

/// The `lifebench-exp-<name>` executables in `folders`, by name; a name found twice:
/// the first folder wins and the other is reported on standard error.
std::vector<Candidate> find_candidates(const std::vector<fs::path>& folders) {
  std::vector<Candidate> found;
  for (const auto& folder : folders) {
    std::error_code error;
    std::vector<Candidate> here;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
      const std::string file = it->path().filename().string();
      if (file.size() <= kPrefix.size() || file.compare(0, kPrefix.size(), kPrefix) != 0) continue;
      std::error_code status_error;
      if (!it->is_regular_file(status_error)) continue;
      if (::access(it->path().c_str(), X_OK) != 0) continue;
      here.push_back({file.substr(kPrefix.size()), it->path()});
    }
    std::sort(here.begin(), here.end(),
              [](const Candidate& a, const Candidate& b) { return a.name < b.name; });
    for (auto& candidate : here) {
      const auto same = std::find_if(found.begin(), found.end(),
                                     [&](const Candidate& c) { return c.name == candidate.name; });
      if (same == found.end()) {
        found.push_back(std::move(candidate));
      } else {
        std::cerr << "lifebench: warning: " << candidate.binary.string()
                  << " ignored: " << candidate.name << " was found first at "
                  << same->binary.string() << "\n";
      }
    }
  }
  return found;
}

} // namespace

fs::path Experiment::sweep_file() const {
  return binary.parent_path() / (name + ".sweep.toml");
}

nlohmann::json Experiment::summary() const {
  nlohmann::json summary{{"available", available},
                         {"reason", available ? nlohmann::json(nullptr) : nlohmann::json(reason)},
                         {"backend", backend},
                         {"family", family},
                         {"source", source},
                         {"technique", technique},
                         {"binary", binary.string()}};
  if (!external.empty()) summary["external"] = external;
  return summary;
}

std::vector<fs::path> Experiment::measured_files() const {
  std::vector<fs::path> files{binary};
  for (const char* key : {"description", "program"}) {
    const auto it = external.find(key);
    if (it != external.end() && !it->second.empty()) files.emplace_back(it->second);
  }
  return files;
}

const Experiment* Catalog::find(const std::string& name) const {
  const auto it = std::find_if(experiments.begin(), experiments.end(),
                               [&](const Experiment& e) { return e.name == name; });
  return it == experiments.end() ? nullptr : &*it;
}

const BrokenExperiment* Catalog::find_broken(const std::string& name) const {
  const auto it = std::find_if(broken.begin(), broken.end(),
                               [&](const BrokenExperiment& e) { return e.name == name; });
  return it == broken.end() ? nullptr : &*it;
}

void Catalog::warn_broken() const {
  for (const auto& e : broken) {
    std::cerr << "lifebench: warning: " << e.binary.string() << ": " << e.reason << "\n";
  }
}

std::vector<fs::path> experiment_folders(const std::vector<std::string>& given) {
  std::vector<fs::path> folders;
  std::set<fs::path> seen;
  const auto add = [&](const fs::path& folder) {
    std::error_code error;
    const fs::path canonical = fs::canonical(folder, error);
    if (error || !fs::is_directory(canonical, error)) return false;
    if (seen.insert(canonical).second) folders.push_back(fs::absolute(folder).lexically_normal());
    return true;
  };
  for (const auto& folder : given) {
    if (!add(folder)) throw Error("experiments folder " + folder + " does not exist");
  }
  if (const char* path = std::getenv("LIFEBENCH_EXPERIMENTS_PATH")) {
    std::string entries = path;
    std::size_t begin = 0;
    while (begin <= entries.size()) {
      const std::size_t end = std::min(entries.find(':', begin), entries.size());
      const std::string entry = entries.substr(begin, end - begin);
      if (!entry.empty() && !add(entry)) {
        std::cerr << "lifebench: warning: LIFEBENCH_EXPERIMENTS_PATH names " << entry
                  << ", which is not a folder\n";
      }
      begin = end + 1;
    }
  }
  if (const fs::path self = program_folder(); !self.empty()) add(self / "experiments");
  return folders;
}

Catalog discover(const std::vector<fs::path>& folders,
                 const std::function<bool(const std::string&)>& wanted) {
  std::vector<Candidate> candidates = find_candidates(folders);
  Catalog catalog;
  for (const auto& candidate : candidates)
    catalog.names.push_back(candidate.name);
  std::sort(catalog.names.begin(), catalog.names.end());
  if (wanted) {
    std::erase_if(candidates, [&](const Candidate& c) { return !wanted(c.name); });
  }
  // Each describe runs in its own process; a few at a time keeps a machine with
  // many GPU experiments from opening dozens of device contexts at once.
  std::vector<std::optional<Experiment>> described(candidates.size());
  std::vector<std::string> failures(candidates.size());
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < candidates.size(); i = next++) {
      try {
        described[i] = describe(candidates[i]);
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    }
  };
  const auto threads = std::min<std::size_t>(kParallelDescribes, candidates.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (auto& thread : pool)
    thread.join();

  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (described[i]) {
      catalog.experiments.push_back(std::move(*described[i]));
    } else {
      catalog.broken.push_back({candidates[i].name, candidates[i].binary, failures[i]});
    }
  }
  return catalog;
}

} // namespace lifebench::driver
