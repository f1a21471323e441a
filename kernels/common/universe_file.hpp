// The universe file an out-of-core simulator keeps its state in (cpu-outofcore,
// cuda-outofcore; and the MPI experiments, whose ranks read and write it): a name of its
// own in the `folder` parameter's folder, written by upload, read by download, removed with
// the simulator.
#pragma once

#include "lifebench/error.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/storage.hpp"
#include "lifebench/universe.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <system_error>

namespace lifebench::outofcore {

inline Axis folder_axis() {
  return {.name = "folder",
          .default_value = "temp",
          .allowed = {},
          .description = "folder of the universe file; temp: the system's temporary folder",
          .role = AxisRole::host_folder};
}

inline Axis cache_axis() {
  return {.name = "cache",
          .default_value = "kept",
          // No list of values: the conformance matrix would run each, tripling it for what
          // one variant checks.
          .allowed = {},
          .description = "the universe file in the host's page cache: kept (as the system "
                         "chooses); dropped as each pass reaches the disk, so that the next "
                         "reads it from the disk (a file larger than memory); or direct: each "
                         "pass written past the cache (O_DIRECT), on the disk as it is written"};
}

/// What a run does with the host's page cache (cache_axis()).
enum class Cache { kept, dropped, direct };

/// The `cache` parameter (kept where absent); throws Error for a value it does not know.
inline Cache cache_of(const Params& params) {
  if (!params.has("cache")) return Cache::kept;
  const std::string& value = params.get("cache");
  if (value == "kept") return Cache::kept;
  if (value == "dropped") return Cache::dropped;
  if (value == "direct") return Cache::direct;
  throw Error("cache must be kept, dropped or direct, not \"" + value + "\"");
}

inline std::filesystem::path folder_of(const Params& params) {
  const std::string& folder = params.get("folder");
  return folder == "temp" ? std::filesystem::temp_directory_path() : std::filesystem::path(folder);
}

/// Why the `folder` parameter cannot hold `files` universe files of `problem` at once (the
/// file and the next pass written beside it: 2), or nothing: not a folder, one whose files
/// cannot be written past the page cache where `cache=direct` asks for it, or less free space
/// there than they take, refused before a run that would fail midway.
inline std::optional<std::string> folder_unsupported(const Problem& problem, const Params& params,
                                                     int files) {
  const std::filesystem::path folder = folder_of(params);
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    return "folder " + folder.string() + " is not a folder";
  }
  if (cache_of(params) == Cache::direct && !takes_direct_io(folder)) {
    return "cache=direct: files in " + folder.string() +
           " cannot be written past the page cache (O_DIRECT)";
  }
  const std::int64_t file_bytes = UniverseHeader{problem, 0}.file_bytes();
  const std::filesystem::space_info space = std::filesystem::space(folder, error);
  const auto needed = static_cast<std::uintmax_t>(files) * static_cast<std::uintmax_t>(file_bytes);
  if (!error && space.available < needed) {
    return std::to_string(files) + " universe file" + (files > 1 ? "s" : "") + " of " +
           std::to_string(file_bytes) + " bytes need " + std::to_string(needed) +
           " bytes free in " + folder.string() + ": " + std::to_string(space.available) + " are";
  }
  return std::nullopt;
}

class UniverseFile {
public:
  /// `user` names the file's user in its name: lifebench-<user>-<random>.lbu.
  UniverseFile(const Problem& problem, const Params& params, const std::string& user = "outofcore")
      : problem_(problem),
        file_(folder_of(params) /
              ("lifebench-" + user + "-" + std::to_string(std::random_device{}()) +
               std::to_string(std::random_device{}()) + ".lbu")),
        drop_cache_(cache_of(params) != Cache::kept) {}
  UniverseFile(const UniverseFile&) = delete;
  UniverseFile& operator=(const UniverseFile&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return file_.path(); }
  void upload(const Grid& grid) const {
    write_state(path(), State{problem_, grid, 0});
    written();
  }
  void upload_soup(const SoupSpec& soup) const {
    write_soup_universe(path(), problem_, soup);
    written();
  }
  [[nodiscard]] Grid download() const { return read_state(path(), std::nullopt).grid; }
  /// The file's entries of Simulator::device(): its folder, what holds it, and its size.
  void describe(std::map<std::string, std::string>& info) const {
    info["folder"] = path().parent_path().string();
    info["storage"] = describe_storage(path().parent_path());
    info["file_bytes"] = std::to_string(UniverseHeader{problem_, 0}.file_bytes());
  }

private:
  /// After the file is written and synced: out of the page cache unless the parameters keep
  /// it (with `direct` too: only the passes are written past the cache).
  void written() const {
    if (drop_cache_) drop_from_page_cache(path());
  }

  Problem problem_;
  RemovedWhenDone file_;
  bool drop_cache_;
};

} // namespace lifebench::outofcore
