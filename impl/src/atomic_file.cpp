// Writing through a temporary file beside the target and renaming it into
// place: a rename within one directory is atomic, so readers see either the
// old file or the whole new one, never a half-written one. The file is synced
// before the rename and the folder after it, so that a crash or power loss
// cannot leave the new name on an empty file. A file put in place keeping the
// one it replaced (TemporaryBeside::Replaced::kept) leaves that one beside it,
// which a later writer may write over: only one that this process wrote.
#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sys/mman.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace lifebench {
namespace {

using detail::os_reason;

/// The folder that holds `path`, "." for a bare name.
std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
}

/// The file that writing `path` writes: `path` itself, or where the symbolic link `path` (and
/// any link it names) leads, so that a link is written through, not replaced by a file.
std::filesystem::path through_links(const std::filesystem::path& path) {
  std::filesystem::path at = path;
  std::error_code error;
  for (int links = 0; std::filesystem::is_symlink(at, error); ++links) {
    if (links == 40) {
      throw Error("cannot write " + path.string() + ": too many levels of symbolic links");
    }
    const std::filesystem::path target = std::filesystem::read_symlink(at, error);
    if (error) throw Error("cannot write " + path.string() + ": " + error.message());
    at = target.is_absolute() ? target : folder_of(at) / target;
  }
  return at;
}

/// What the names of the temporaries of `path` start with: ".<name>.tmp-".
std::string temporary_prefix(const std::filesystem::path& path) {
  // Appending rather than `"." + string` sidesteps GCC 12's false -Wrestrict.
  std::string prefix = ".";
  prefix += path.filename().string();
  prefix += ".tmp-";
  return prefix;
}

/// A name beside `path` that no other writer picks: 64 random bits.
std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  std::random_device device;
  const std::uint64_t bits = (std::uint64_t{device()} << 32U) ^ device();
  return path.parent_path() / (temporary_prefix(path) + detail::hex(bits, 16));
}

/// The temporaries being written now, for remove_temporaries_in_progress(), which a signal
/// handler calls: fixed slots of plain bytes, claimed and published through atomics, so that
/// the handler reads them without a lock or an allocation.
constexpr std::size_t kSlots = 16;
constexpr std::size_t kLongestPath = 4096;
std::array<std::array<char, kLongestPath>, kSlots> g_temporaries{};
std::array<std::atomic<bool>, kSlots> g_claimed{};
std::array<std::atomic<bool>, kSlots> g_published{};

/// Notes `temporary` until forget_in_progress(slot); the slot, or -1 where none is free or
/// the path is too long (it is then left behind, as by a kill -9).
int note_in_progress(const std::filesystem::path& temporary) {
  const std::string& text = temporary.native();
  if (text.size() >= kLongestPath) return -1;
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    bool free = false;
    if (!g_claimed[slot].compare_exchange_strong(free, true)) continue;
    std::copy(text.begin(), text.end(), g_temporaries[slot].begin());
    g_temporaries[slot][text.size()] = '\0';
    g_published[slot].store(true);
    return static_cast<int>(slot);
  }
  return -1;
}

void forget_in_progress(int slot) {
  if (slot < 0) return;
  g_published[static_cast<std::size_t>(slot)].store(false);
  g_claimed[static_cast<std::size_t>(slot)].store(false);
}

/// Flushes `file` (or a folder) to the disk; errors name `shown`, the file the user asked for.
void sync_to_disk(const std::filesystem::path& file, const std::filesystem::path& shown) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot sync " + shown.string() + " to disk: " + os_reason());
  const int synced = ::fsync(fd);
  const std::string reason = synced != 0 ? os_reason() : "";
  ::close(fd);
  if (synced != 0) throw Error("cannot sync " + shown.string() + " to disk: " + reason);
}

/// Renames `temporary` (synced) over `path`: atomic within one folder.
void rename_into_place(const std::filesystem::path& temporary, const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw Error("cannot write " + path.string() + ": " + error.message());
}

/// Syncs the folder of `path` after a rename into it.
void sync_folder_of(const std::filesystem::path& path) {
  sync_to_disk(folder_of(path), path);
}

} // namespace

TemporaryInProgress::TemporaryInProgress(const std::filesystem::path& temporary)
    : slot_(note_in_progress(temporary)) {}

TemporaryInProgress::~TemporaryInProgress() {
  forget_in_progress(slot_);
}

RemovedWhenDone::RemovedWhenDone(std::filesystem::path path) : path_(std::move(path)) {}

RemovedWhenDone::~RemovedWhenDone() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
  const std::filesystem::path target = through_links(path);
  const std::filesystem::path temporary = temporary_beside(target);
  const TemporaryInProgress in_progress(temporary);
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot write " + path.string() + ": " + os_reason());
  try {
    write(out);
    out.flush();
    if (!out) throw Error("cannot write " + path.string() + ": " + os_reason());
    out.close();
    if (out.fail()) throw Error("cannot write " + path.string() + ": " + os_reason());
    sync_to_disk(temporary, path);
    rename_into_place(temporary, target);
  } catch (...) {
    out.close();
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
  sync_folder_of(target);
}

TemporaryBeside::TemporaryBeside(const std::filesystem::path& path)
    : path_(path), target_(through_links(path)), temporary_(temporary_beside(target_)),
      in_progress_(temporary_) {}

TemporaryBeside::~TemporaryBeside() {
  if (placed_) return;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void TemporaryBeside::put_in_place(int& fd, Replaced replaced) {
  if (::fsync(fd) != 0) throw Error("cannot sync " + path_.string() + " to disk: " + os_reason());
  ::close(std::exchange(fd, -1));
  // An exchange that fails changes nothing (no file to exchange with, a file system or a
  // sandbox that has none): a rename then, which says what is wrong if it fails too.
  const bool exchanged =
      replaced == Replaced::kept &&
      ::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0;
  if (!exchanged) rename_into_place(temporary_, target_);
  placed_ = !exchanged; // exchanged, the temporary's name holds the file replaced
  sync_folder_of(target_);
}

bool TemporaryBeside::adopt(TemporaryBeside& other) {
  return other.target_ == target_ && ::rename(other.temporary_.c_str(), temporary_.c_str()) == 0;
}

MappedFileWriter::MappedFileWriter(const std::filesystem::path& path, std::int64_t size)
    : file_(path) {
  const std::string where = path.string();
  fd_ = ::open(file_.temporary().c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error("cannot write " + where + ": " + os_reason());
  try {
    if (const int error = ::posix_fallocate(fd_, 0, size); error != 0) {
      throw Error("cannot reserve " + std::to_string(size) + " bytes for " + where + ": " +
                  os_reason(error));
    }
    const auto length = static_cast<std::size_t>(size);
    void* map = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (map == MAP_FAILED) throw Error("cannot map " + where + ": " + os_reason());
    bytes_ = {static_cast<std::byte*>(map), length};
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

MappedFileWriter::~MappedFileWriter() {
  if (!bytes_.empty()) ::munmap(bytes_.data(), bytes_.size());
  if (fd_ >= 0) ::close(fd_);
}

void MappedFileWriter::start_writeback(std::int64_t offset, std::int64_t length) const {
  // Advice only: commit()'s fsync writes whatever this does not.
  (void)::sync_file_range(fd_, offset, length, SYNC_FILE_RANGE_WRITE);
}

void MappedFileWriter::commit() {
  ::munmap(bytes_.data(), bytes_.size());
  bytes_ = {};
  file_.put_in_place(fd_);
}

void drop_from_page_cache(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot open " + file.string() + ": " + os_reason());
  const int error = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
  if (error != 0) {
    throw Error("cannot drop " + file.string() + " from the page cache: " + os_reason(error));
  }
}

void remove_temporaries_in_progress() noexcept {
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    if (g_published[slot].load()) ::unlink(g_temporaries[slot].data());
  }
}

void remove_temporaries_beside(const std::filesystem::path& written) {
  const std::filesystem::path path = through_links(written);
  const std::string prefix = temporary_prefix(path);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder_of(path), error)) {
    if (entry.path().filename().string().starts_with(prefix)) {
      std::filesystem::remove(entry.path(), error);
    }
  }
}

bool is_temporary_beside(const std::filesystem::path& file, const std::filesystem::path& written) {
  const std::filesystem::path path = through_links(written);
  std::error_code error;
  return file.filename().string().starts_with(temporary_prefix(path)) &&
         std::filesystem::equivalent(folder_of(file), folder_of(path), error);
}

} // namespace lifebench
