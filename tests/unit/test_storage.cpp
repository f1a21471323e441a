// describe_storage on a fake mount table and sysfs for the test's own folder.
#include "lifebench/storage.hpp"
#include "test_support.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace lifebench {
namespace {

namespace fs = std::filesystem;

class Storage : public testing::TempDirTest {
protected:
  void SetUp() override {
    TempDirTest::SetUp();
    struct stat status {};
    ASSERT_EQ(::stat(dir_.c_str(), &status), 0);
    device_ = std::to_string(major(status.st_dev)) + ":" + std::to_string(minor(status.st_dev));
    fs::create_directories(sysfs() / "dev" / "block");
  }

  [[nodiscard]] fs::path sysfs() const { return dir_ / "sys"; }

  /// A mount table whose first mount of the folder's device has file system `type`, after
  /// optional fields; a later mount of it (as a bind mount would be) says otherwise.
  void mount(const std::string& type) const {
    std::string table = "22 27 0:21 / /proc rw,relatime - proc proc rw\n";
    table += "27 1 " + device_ + " / / rw,relatime shared:1 master:2 - " + type + " /dev/x rw\n";
    table += "28 27 " + device_ + " / /bound rw - other /dev/x rw\n";
    write(file("mountinfo"), table);
  }

  /// A block device of sysfs at `path` (under devices/), linked as the folder's device.
  [[nodiscard]] fs::path block_device(const std::string& path) const {
    fs::create_directories(sysfs() / "devices" / path);
    fs::create_directory_symlink(fs::path("../..") / "devices" / path,
                                 sysfs() / "dev" / "block" / device_);
    return sysfs() / "devices" / path;
  }

  [[nodiscard]] std::string describe() const {
    return describe_storage(dir_, file("mountinfo"), sysfs());
  }

  std::string device_;
};

TEST_F(Storage, PartitionOfADiskWithAModel) {
  mount("ext4");
  const fs::path partition = block_device("pci0000:00/0000:00:01.0/nvme/nvme0/nvme0n1/nvme0n1p1");
  write(partition / "partition", "1\n");
  const fs::path disk = partition.parent_path();
  fs::create_directories(disk / "device");
  fs::create_directories(disk / "queue");
  write(disk / "device" / "model", "Samsung SSD 980 PRO 1TB            \n");
  write(disk / "queue" / "rotational", "0\n");
  EXPECT_EQ(describe(), "ext4 on nvme0n1 (Samsung SSD 980 PRO 1TB, solid state)");
}

TEST_F(Storage, RotatingDiskWithoutAModel) {
  mount("xfs");
  const fs::path disk = block_device("pci0000:00/0000:00:1f.2/ata1/host0/block/sda");
  fs::create_directories(disk / "queue");
  write(disk / "queue" / "rotational", "1\n");
  EXPECT_EQ(describe(), "xfs on sda (rotating)");
}

TEST_F(Storage, NothingKnownOfTheDiskButItsName) {
  mount("btrfs");
  static_cast<void>(block_device("virtual/block/dm-0"));
  EXPECT_EQ(describe(), "btrfs on dm-0");
}

TEST_F(Storage, NoBlockDeviceGivesTheFileSystemAlone) {
  mount("tmpfs");
  EXPECT_EQ(describe(), "tmpfs");
}

TEST_F(Storage, Unknown) {
  write(file("mountinfo"), "22 27 0:21 / /proc rw,relatime - proc proc rw\n");
  EXPECT_EQ(describe(), "unknown");
  fs::remove(file("mountinfo"));
  EXPECT_EQ(describe(), "unknown");
  mount("ext4");
  EXPECT_EQ(describe_storage(dir_ / "missing", file("mountinfo"), sysfs()), "unknown");
}

} // namespace
} // namespace lifebench
