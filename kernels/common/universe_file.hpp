// The universe file an out-of-core simulator keeps its state in (cpu-outofcore,
// cuda-outofcore; and the MPI experiments, whose ranks read and write it): a name of its
// own in the `folder` parameter's folder, written by upload, read by download, removed with
// the simulator.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/storage.hpp"
#include "lifebench/universe.hpp"

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

inline std::filesystem::path folder_of(const Params& params) {
  const std::string& folder = params.get("folder");
  return folder == "temp" ? std::filesystem::temp_directory_path() : std::filesystem::path(folder);
}

/// Why the `folder` parameter cannot hold the universe file, or nothing.
inline std::optional<std::string> folder_unsupported(const Params& params) {
  const std::filesystem::path folder = folder_of(params);
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    return "folder " + folder.string() + " is not a folder";
  }
  return std::nullopt;
}

class UniverseFile {
public:
  /// `user` names the file's user in its name: lifebench-<user>-<random>.lbu.
  UniverseFile(const Problem& problem, const Params& params, const std::string& user = "outofcore")
      : problem_(problem),
        path_(folder_of(params) /
              ("lifebench-" + user + "-" + std::to_string(std::random_device{}()) +
               std::to_string(std::random_device{}()) + ".lbu")) {}
  ~UniverseFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  UniverseFile(const UniverseFile&) = delete;
  UniverseFile& operator=(const UniverseFile&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  void upload(const Grid& grid) const { write_state(path_, State{problem_, grid, 0}); }
  void upload_soup(const SoupSpec& soup) const { write_soup_universe(path_, problem_, soup); }
  [[nodiscard]] Grid download() const { return read_state(path_, std::nullopt).grid; }
  /// The file's entries of Simulator::device(): its folder, what holds it, and its size.
  void describe(std::map<std::string, std::string>& info) const {
    info["folder"] = path_.parent_path().string();
    info["storage"] = describe_storage(path_.parent_path());
    info["file_bytes"] = std::to_string(UniverseHeader{problem_, 0}.file_bytes());
  }

private:
  Problem problem_;
  std::filesystem::path path_;
};

} // namespace lifebench::outofcore
