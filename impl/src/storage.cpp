// Names what holds a folder: the mount whose device is the folder's (mountinfo), then the
// disk under it (sysfs: its model and the queue's "rotational" flag, which virtual disks
// often set whatever their backing store is).
#include "lifebench/storage.hpp"

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <system_error>

namespace lifebench {
namespace {

namespace fs = std::filesystem;

/// The first line of a small file, without surrounding blanks; empty if it cannot be read.
std::string read_trimmed(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  constexpr const char* blanks = " \t\r\n";
  const auto first = line.find_first_not_of(blanks);
  if (first == std::string::npos) return {};
  return line.substr(first, line.find_last_not_of(blanks) - first + 1);
}

/// The file system type of the first mount of `device` ("major:minor") in `mountinfo`.
std::string mount_type(const fs::path& mountinfo, const std::string& device) {
  std::ifstream in(mountinfo);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string mount_id;
    std::string parent_id;
    std::string number;
    fields >> mount_id >> parent_id >> number;
    // A varying number of optional fields come before " - ", the type right after it.
    const auto separator = line.find(" - ");
    if (number != device || separator == std::string::npos) continue;
    std::istringstream rest(line.substr(separator + 3));
    std::string type;
    if (rest >> type) return type;
  }
  return {};
}

/// The disk under block device `device` ("major:minor"), its model and whether it rotates:
/// "nvme0n1 (Samsung SSD 980 PRO 1TB, solid state)"; empty if sysfs has no such device.
std::string disk_of(const fs::path& sysfs, const std::string& device) {
  std::error_code error;
  fs::path disk = fs::canonical(sysfs / "dev" / "block" / device, error);
  if (error) return {};
  // A partition's folder lies inside its disk's.
  if (fs::exists(disk / "partition", error)) disk = disk.parent_path();

  std::string details = read_trimmed(disk / "device" / "model");
  const std::string rotational = read_trimmed(disk / "queue" / "rotational");
  if (rotational == "0" || rotational == "1") {
    details += details.empty() ? "" : ", ";
    details += rotational == "1" ? "rotating" : "solid state";
  }
  std::string text = disk.filename().string();
  if (!details.empty()) text += " (" + details + ")";
  return text;
}

} // namespace

std::string describe_storage(const fs::path& folder, const fs::path& mountinfo,
                             const fs::path& sysfs) {
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0) return "unknown";
  const std::string device =
      std::to_string(major(status.st_dev)) + ":" + std::to_string(minor(status.st_dev));
  const std::string type = mount_type(mountinfo, device);
  if (type.empty()) return "unknown";
  const std::string disk = disk_of(sysfs, device);
  return disk.empty() ? type : type + " on " + disk;
}

} // namespace lifebench
