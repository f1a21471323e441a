// The results folder of harness/RESULTS.md: manifest.json, one <experiment>.json per
// experiment and benchmarks.json, each rewritten atomically after every configuration, so
// an interrupted sweep keeps all finished work and --resume can pick it up.
#pragma once

#include "fd.hpp"
#include "result_fields.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lifebench::driver {

/// The results schema this lifebench writes and reads (harness/results.schema.json).
inline constexpr int kResultsSchema = 1;
inline constexpr const char* kManifestFile = "manifest.json";
/// The folder's results in Google Benchmark's JSON format (google_benchmark_json.hpp).
inline constexpr const char* kBenchmarksFile = "benchmarks.json";

/// Which parts of a file a reader keeps, as nlohmann's parser callback decides (a part it
/// drops takes no memory); empty: everything.
using KeptParts = nlohmann::json::parser_callback_t;

/// A file's JSON object, of the parts `keep` keeps; throws Error naming the file if it is
/// unreadable or not an object.
nlohmann::json read_json_object(const std::filesystem::path& file, const KeptParts& keep = {});

/// Throws Error naming `file` if `contents` gives a results schema other than ours.
void check_schema(const std::filesystem::path& file, const nlohmann::json& contents);

/// What the experiment files of a results folder record (every *.json but the manifest,
/// benchmarks.json and temporaries): experiment → config_id → result. Throws Error naming
/// a file that is not an experiment's results file or is of another schema, and two files
/// holding one experiment or one configuration (or one holding it twice); with `validate`,
/// a file that is not valid against results.schema.json, naming the place in it. `keep` as
/// read_json_object's.
std::map<std::string, std::map<std::string, nlohmann::json>>
read_recorded_results(const std::filesystem::path& dir, bool validate = false,
                      const KeptParts& keep = {});

/// 64-bit FNV-1a of the files' bytes, one after the other, as "0x" and 16 hex digits;
/// throws Error if one is unreadable.
std::string binary_hash(const std::vector<std::filesystem::path>& files);

/// flock() on a results folder itself, held while a run writes there: a second run into the
/// folder is refused, naming this process. The kernel lets it go when the process ends,
/// however it ends, and nothing of it is left in the folder.
class FolderLock {
public:
  FolderLock() = default;
  /// Throws Error naming the process that holds `dir` (its pid and command line).
  explicit FolderLock(const std::filesystem::path& dir);
  [[nodiscard]] bool held() const { return fd_.get() >= 0; }

private:
  Fd fd_;
};

class ResultsFolder {
public:
  /// Checks `dir` without touching it: an existing non-empty folder needs `resume`,
  /// and then its results are loaded for previous(). With `lock`, the folder is held from
  /// here (or from start(), which makes it) to the end, before anything is read.
  ResultsFolder(std::filesystem::path dir, bool resume, bool lock);

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  /// What an earlier run recorded for this configuration (when resuming).
  [[nodiscard]] std::optional<nlohmann::json> previous(const std::string& experiment,
                                                       const std::string& config_id) const;

  /// How many of the results an earlier run recorded are of configurations other than `ids`
  /// (config_ids): those start() keeps as they are.
  [[nodiscard]] std::size_t count_outside(const std::set<std::string>& ids) const;

  /// Creates the folder and prepares the manifest (its "started" kept from an earlier
  /// run when resuming) and an <experiment>.json for each of `experiments`; writes
  /// nothing, so that the results kept from an earlier run can be recorded first. When
  /// resuming, the results of configurations other than this run's `ids` (another --impl or
  /// sweep measured them) stay: the folder's other experiments keep their files untouched,
  /// and this run's experiments keep them after its own configurations; all keep their
  /// manifest entries and their place in the manifest's counts and in benchmarks.json.
  void start(nlohmann::json manifest, const std::vector<std::string>& experiments,
             std::size_t total, const std::set<std::string>& ids);

  /// Records the result of the configuration at `position` of the sweep; writes the
  /// experiment's file, benchmarks.json and the manifest unless `write` is false.
  void record(std::size_t position, const std::string& experiment, nlohmann::json result,
              bool write = true);

  /// Writes every file: after start() and the records made with write = false. Should a write
  /// fail in a folder that was empty, what it wrote goes (the folder too if start() made it,
  /// not the folders above it that it made), so that a disk full at the start leaves no folder
  /// that can be neither resumed nor reused.
  void write_all();

  /// Sets "finished" and writes the manifest.
  void finish();

  /// This run's configurations by status (the manifest's counts add the other experiments').
  [[nodiscard]] const nlohmann::json& counts() const { return run_counts_; }

private:
  void write_experiment(const std::string& experiment) const;
  void write_benchmarks() const;
  void write_manifest() const;

  std::filesystem::path dir_;
  bool lock_wanted_;
  bool empty_at_start_ = true; ///< nonexistent or empty when this run found it
  bool made_ = false;          ///< made by start()
  FolderLock lock_;
  std::optional<std::string> previous_started_;
  std::map<std::string, std::map<std::string, nlohmann::json>>
      previous_;                        // experiment → id → result
  nlohmann::json previous_experiments_; ///< the earlier manifest's "experiments"
  std::map<std::string, std::map<std::size_t, nlohmann::json>> results_; // experiment → position
  /// The other experiments' results, after this run's positions, for benchmarks.json.
  std::map<std::size_t, nlohmann::json> others_;
  nlohmann::json run_counts_;
  nlohmann::json manifest_;
};

} // namespace lifebench::driver
