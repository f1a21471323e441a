#include "results.hpp"

#include "google_benchmark_json.hpp"
#include "lifebench/error.hpp"
#include "lifebench/json_text.hpp"
#include "lifebench/state_io.hpp"
#include "machine_load.hpp"
#include "results_schema.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <utility>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

/// write_file_atomically's temporaries are ".<target>.tmp-<random>": hidden, never
/// taken for results, and left behind by a driver killed while writing.
bool is_temporary(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.starts_with('.') && name.find(".tmp-") != std::string::npos;
}

void write_text(const fs::path& file, const std::string& text) {
  write_file_atomically(file, [&](std::ostream& out) { out << text; });
}

/// Deeper than any file lifebench writes (a result nests five or six levels).
constexpr int kDeepestJson = 64;

nlohmann::json no_counts(std::size_t total) {
  return {{"total", total}, {"done", 0},        {"ok", 0},
          {"failed", 0},    {"unsupported", 0}, {"unavailable", 0}};
}

/// Counts one recorded result: done, and its status.
void count(nlohmann::json& counts, const nlohmann::json& result) {
  counts["done"] = counts["done"].get<std::size_t>() + 1;
  const std::string status = result.value("status", "failed");
  if (counts.contains(status)) counts[status] = counts[status].get<std::size_t>() + 1;
}

/// The process holding a flock() on `dir`, as /proc/locks gives it
/// ("1: FLOCK  ADVISORY  WRITE 1234 fe:00:10952777 0 EOF"), described; "another process" where
/// it does not say.
std::string lock_holder(const fs::path& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) return "another process";
  std::array<char, 64> file_id{};
  std::snprintf(file_id.data(), file_id.size(), "%02x:%02x:%llu", ::major(info.st_dev),
                ::minor(info.st_dev), static_cast<unsigned long long>(info.st_ino));
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream fields(line);
    std::string id, type, mode, access, pid, where;
    fields >> id >> type >> mode >> access >> pid >> where;
    if (type == "FLOCK" && where == file_id.data()) {
      return "process " + describe_process(static_cast<pid_t>(std::atol(pid.c_str())));
    }
  }
  return "another process";
}

} // namespace

FolderLock::FolderLock(const fs::path& dir)
    : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_.get() < 0) {
    throw Error("cannot open results folder " + dir.string() + ": " + std::strerror(errno));
  }
  if (::flock(fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    fd_.reset();
    if (error != EWOULDBLOCK) {
      throw Error("cannot lock results folder " + dir.string() + ": " + std::strerror(error));
    }
    throw Error("results folder " + dir.string() + " is in use by " + lock_holder(dir) +
                ": wait for it to end, or use another --out");
  }
}

nlohmann::json read_json_object(const fs::path& file, const KeptParts& keep) {
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw Error(file.string() + " is not a regular file"); // a FIFO would hang the read
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot read " + file.string());
  // Copying, comparing and writing a JSON value recurse once a level: a file nested deeper
  // than lifebench writes any is refused before it can exhaust the stack.
  const auto checked = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (depth > kDeepestJson) {
      throw Error(file.string() + " nests deeper than " + std::to_string(kDeepestJson) +
                  " levels: not a file lifebench wrote");
    }
    return !keep || keep(depth, event, parsed);
  };
  auto json = nlohmann::json::parse(in, checked, false);
  if (json.is_discarded() || !json.is_object()) {
    throw Error(file.string() + " is not a JSON object");
  }
  return json;
}

std::string binary_hash(const std::vector<fs::path>& files) {
  std::uint64_t hash = 14695981039346656037ULL; // FNV-1a, 64-bit
  std::array<char, 1 << 16> buffer{};
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("cannot read " + file.string() + " to hash it");
    while (in) {
      in.read(buffer.data(), buffer.size());
      const auto n = static_cast<std::size_t>(in.gcount());
      for (std::size_t i = 0; i < n; ++i) {
        hash ^= static_cast<unsigned char>(buffer[i]);
        hash *= 1099511628211ULL;
      }
    }
  }
  std::array<char, 19> text{};
  std::snprintf(text.data(), text.size(), "0x%016llx", static_cast<unsigned long long>(hash));
  return text.data();
}

std::map<std::string, std::map<std::string, nlohmann::json>>
read_recorded_results(const fs::path& dir, bool validate, const KeptParts& keep) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path& file = entry.path();
    if (file.extension() == ".json" && file.filename() != kManifestFile &&
        file.filename() != kBenchmarksFile && !is_temporary(file)) {
      files.push_back(file);
    }
  }
  std::sort(files.begin(), files.end()); // the same message whatever the folder's order
  std::map<std::string, std::map<std::string, nlohmann::json>> recorded;
  std::map<std::string, fs::path> file_of; // experiment or config_id → the file holding it
  const auto hold = [&](const std::string& what, const std::string& key, const fs::path& file) {
    const auto [it, first] = file_of.emplace(key, file);
    if (first) return;
    throw Error(it->second == file ? file.string() + " holds " + what + " twice"
                                   : it->second.string() + " and " + file.string() + " both hold " +
                                         what + ": keep one of them");
  };
  for (const auto& file : files) {
    nlohmann::json results = read_json_object(file, keep);
    if (!results["experiment"].is_string() || !results["configurations"].is_array()) {
      throw Error(file.string() + " is not an experiment's results file");
    }
    check_schema(file, results);
    if (validate) check_against_schema(file, results, "experiment_results");
    const auto experiment = results["experiment"].get<std::string>();
    hold("the results of experiment " + quote(experiment, '\''), "experiment " + experiment, file);
    auto& by_id = recorded[experiment];
    for (auto& result : results["configurations"]) {
      const std::string id = string_at(result, "config_id");
      if (id.empty()) continue; // a result of no configuration (validate refuses it)
      hold("configuration " + quote(id, '\''), "config_id " + id, file);
      by_id[id] = std::move(result);
    }
  }
  return recorded;
}

void check_schema(const fs::path& file, const nlohmann::json& contents) {
  const auto schema = contents.find("schema");
  if (schema != contents.end() && *schema != kResultsSchema) {
    throw Error(file.string() + " has results schema " + schema->dump() +
                "; this lifebench reads schema " + std::to_string(kResultsSchema));
  }
}

ResultsFolder::ResultsFolder(fs::path dir, bool resume, bool lock)
    : dir_(std::move(dir)), lock_wanted_(lock) {
  std::error_code error;
  if (!fs::exists(dir_, error)) return;
  if (!fs::is_directory(dir_, error)) throw Error("results folder " + dir_.string() + " is a file");
  if (lock_wanted_) lock_ = FolderLock(dir_);
  const bool empty = fs::is_empty(dir_, error);
  empty_at_start_ = empty;
  const bool has_manifest = fs::exists(dir_ / kManifestFile, error);
  if (!resume) {
    if (!empty) {
      throw Error("results folder " + dir_.string() + " exists: use --resume or another --out");
    }
    return;
  }
  if (empty) return;
  if (!has_manifest) {
    throw Error("cannot resume in " + dir_.string() + ": it has no manifest.json");
  }
  const nlohmann::json manifest = read_json_object(dir_ / kManifestFile);
  try {
    check_schema(dir_ / kManifestFile, manifest);
  } catch (const Error& e) {
    throw Error(std::string("cannot resume: ") + e.what());
  }
  if (manifest.contains("started") && manifest["started"].is_string()) {
    previous_started_ = manifest["started"].get<std::string>();
  }
  if (manifest.contains("experiments") && manifest["experiments"].is_object()) {
    previous_experiments_ = manifest["experiments"];
  }
  try {
    previous_ = read_recorded_results(dir_, true);
  } catch (const Error& e) {
    throw Error(std::string("cannot resume: ") + e.what());
  }
}

std::optional<nlohmann::json> ResultsFolder::previous(const std::string& experiment,
                                                      const std::string& config_id) const {
  const auto e = previous_.find(experiment);
  if (e == previous_.end()) return std::nullopt;
  const auto it = e->second.find(config_id);
  if (it == e->second.end()) return std::nullopt;
  return it->second;
}

std::size_t ResultsFolder::count_outside(const std::set<std::string>& ids) const {
  std::size_t outside = 0;
  for (const auto& [experiment, by_id] : previous_) {
    for (const auto& [id, result] : by_id)
      outside += ids.contains(id) ? 0 : 1;
  }
  return outside;
}

void ResultsFolder::start(nlohmann::json manifest, const std::vector<std::string>& experiments,
                          std::size_t total, const std::set<std::string>& ids) {
  std::error_code error;
  made_ = fs::create_directories(dir_, error);
  if (error) throw Error("cannot create results folder " + dir_.string() + ": " + error.message());
  if (lock_wanted_ && !lock_.held()) {
    lock_ = FolderLock(dir_);
    // Made or filled by another run since this one found it empty: its plan no longer holds,
    // and write_all() must not take back files it did not write.
    if (empty_at_start_ && !fs::is_empty(dir_, error)) {
      throw Error("results folder " + dir_.string() +
                  " was written by another run meanwhile: use another --out");
    }
  }
  // Temporaries of a driver that was killed while writing.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (is_temporary(entry.path())) fs::remove(entry.path(), error);
  }
  manifest_ = std::move(manifest);
  if (previous_started_) manifest_["started"] = *previous_started_;
  manifest_["finished"] = nullptr;
  run_counts_ = no_counts(total);
  manifest_["configurations"] = no_counts(total);
  for (const auto& experiment : experiments)
    results_[experiment];
  std::size_t position = total;
  for (const auto& [experiment, by_id] : previous_) {
    const bool in_run = results_.contains(experiment);
    if (!in_run && previous_experiments_.contains(experiment)) {
      manifest_["experiments"][experiment] = previous_experiments_[experiment];
    }
    for (const auto& [id, result] : by_id) {
      if (ids.contains(id)) continue;
      count(manifest_["configurations"], result);
      (in_run ? results_[experiment] : others_)[position++] = result;
    }
  }
  manifest_["configurations"]["total"] = position;
}

void ResultsFolder::record(std::size_t position, const std::string& experiment,
                           nlohmann::json result, bool write) {
  count(run_counts_, result);
  count(manifest_["configurations"], result);
  results_[experiment][position] = std::move(result);
  if (write) {
    write_experiment(experiment);
    write_benchmarks();
    write_manifest();
  }
}

void ResultsFolder::write_all() {
  try {
    for (const auto& [experiment, results] : results_)
      write_experiment(experiment);
    write_benchmarks();
    write_manifest();
  } catch (...) {
    if (empty_at_start_) {
      std::error_code error;
      for (const auto& [experiment, results] : results_)
        fs::remove(dir_ / (experiment + ".json"), error);
      fs::remove(dir_ / kBenchmarksFile, error);
      fs::remove(dir_ / kManifestFile, error);
      if (made_) fs::remove(dir_, error); // only if empty
    }
    throw;
  }
}

void ResultsFolder::finish() {
  manifest_["finished"] = utc_now_iso();
  if (manifest_.contains("load")) note_load_at_end(manifest_["load"]);
  write_manifest();
}

void ResultsFolder::write_experiment(const std::string& experiment) const {
  nlohmann::json configurations = nlohmann::json::array();
  const auto it = results_.find(experiment);
  if (it != results_.end()) {
    for (const auto& [position, result] : it->second)
      configurations.push_back(result);
  }
  const nlohmann::json file = {
      {"schema", kResultsSchema}, {"experiment", experiment}, {"configurations", configurations}};
  write_text(dir_ / (experiment + ".json"), json_text(file));
}

void ResultsFolder::write_benchmarks() const {
  std::map<std::size_t, const nlohmann::json*> in_sweep_order;
  for (const auto& [experiment, results] : results_) {
    for (const auto& [position, result] : results)
      in_sweep_order[position] = &result;
  }
  for (const auto& [position, result] : others_)
    in_sweep_order[position] = &result;
  std::vector<const nlohmann::json*> results;
  results.reserve(in_sweep_order.size());
  for (const auto& [position, result] : in_sweep_order)
    results.push_back(result);
  write_text(dir_ / kBenchmarksFile, json_text(google_benchmark_json(manifest_, results)));
}

void ResultsFolder::write_manifest() const {
  write_text(dir_ / kManifestFile, json_text(manifest_));
}

} // namespace lifebench::driver
