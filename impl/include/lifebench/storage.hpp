// What holds a folder's files: its file system and, where there is one, the disk under it,
// as Linux's mount table and sysfs tell. Results record it beside timings that depend on it.
#pragma once

#include <filesystem>
#include <string>

namespace lifebench {

/// What holds the files of `folder`: "ext4 on nvme0n1 (Samsung SSD 980 PRO 1TB, solid
/// state)", "xfs on sda (rotating)", or the file system alone ("tmpfs", "overlay") when it
/// has no block device. Details that cannot be read are left out; "unknown" if `folder`
/// cannot be stat'ed or no mount in `mountinfo` has its device. Never throws. `mountinfo`
/// and `sysfs` are the kernel's by default, other files in tests.
std::string describe_storage(const std::filesystem::path& folder,
                             const std::filesystem::path& mountinfo = "/proc/self/mountinfo",
                             const std::filesystem::path& sysfs = "/sys");

} // namespace lifebench
