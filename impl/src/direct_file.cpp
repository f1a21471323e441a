// DirectFileWriter: a file written past the page cache (O_DIRECT). Such writes must start
// and end on the disk's blocks and come from memory aligned as they are; whole pages of
// 4 KiB (a multiple of any block size in use) are, and a page a piece only partly covers is
// read, patched and written back. The pages go out from a few threads at once: one write
// at a time leaves most of a disk's rate unused.
#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"
#include "text.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

using detail::os_reason;

constexpr std::int64_t kPage = 4096;
/// The most bytes one write moves: a piece of whole rows is cut into writes of this size, so
/// that several threads share it.
constexpr std::int64_t kLargestWrite = std::int64_t{4} << 20;
/// Writes in flight at once: on this project's development machine (an ext4 virtual disk),
/// 16 KiB writes into reserved blocks ran at 0.65 GB/s from 16 threads and 0.72 to 0.79 from
/// 32 (1.1 to 1.3 in 64 MiB writes from one); 64 threads were no faster.
constexpr int kWriters = 32;

std::int64_t whole_pages(std::int64_t bytes) {
  return (bytes + kPage - 1) / kPage * kPage;
}

struct AlignedFree {
  void operator()(std::byte* bytes) const { std::free(bytes); }
};
using AlignedBytes = std::unique_ptr<std::byte[], AlignedFree>;

AlignedBytes aligned_bytes(std::int64_t size) {
  auto* bytes = static_cast<std::byte*>(std::aligned_alloc(kPage, static_cast<std::size_t>(size)));
  if (bytes == nullptr) throw std::bad_alloc();
  return AlignedBytes(bytes);
}

/// One write of the file: `from` at `offset`, whole pages (aligned in memory or not), or
/// (`partial`) the part of one page that a piece covers.
struct Job {
  std::int64_t offset = 0;
  std::span<const std::byte> from;
  bool partial = false;
};

/// `pieces` as jobs: whole pages (at most kLargestWrite at a time) and the partial pages at
/// either end.
std::vector<Job> jobs_of(std::span<const DirectFileWriter::Piece> pieces) {
  std::vector<Job> jobs;
  for (const auto& piece : pieces) {
    const std::int64_t begin = piece.offset;
    const std::int64_t end = begin + static_cast<std::int64_t>(piece.bytes.size());
    const std::int64_t first = std::min(whole_pages(begin), end);
    const std::int64_t last = std::max(end / kPage * kPage, first);
    const auto bytes = [&](std::int64_t from, std::int64_t to) {
      return piece.bytes.subspan(static_cast<std::size_t>(from - begin),
                                 static_cast<std::size_t>(to - from));
    };
    if (begin < first) jobs.push_back({begin, bytes(begin, first), true});
    for (std::int64_t at = first; at < last; at += kLargestWrite) {
      jobs.push_back({at, bytes(at, std::min(at + kLargestWrite, last)), false});
    }
    if (last < end) jobs.push_back({last, bytes(last, end), true});
  }
  return jobs;
}

/// Writes `bytes` (whole, aligned pages) at `offset`. A direct write the disk takes only in
/// part ends short of a block (a full disk, say): refused, as a retry from there would be
/// misaligned.
void write_pages(int fd, const std::byte* bytes, std::int64_t size, std::int64_t offset,
                 const std::string& where) {
  for (std::int64_t done = 0; done < size;) {
    const ssize_t n =
        ::pwrite(fd, bytes + done, static_cast<std::size_t>(size - done), offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot write " + where + ": " + os_reason());
    if (n == 0 || n % kPage != 0) {
      throw Error("cannot write " + where + ": the disk took " + std::to_string(n) + " of " +
                  std::to_string(size - done) + " bytes at byte " + std::to_string(offset + done));
    }
    done += n;
  }
}

/// Reads the page at `offset` (aligned) into `page`; what lies past the end of the file reads
/// as zeros.
void read_page(int fd, std::byte* page, std::int64_t offset, const std::string& where) {
  std::int64_t got = 0;
  while (got < kPage) {
    const ssize_t n = ::pread(fd, page + got, static_cast<std::size_t>(kPage - got), offset + got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot read back " + where + ": " + os_reason());
    if (n == 0) break;
    got += n;
  }
  std::memset(page + got, 0, static_cast<std::size_t>(kPage - got));
}

/// `path`, a file adopted to be written over, opened for direct writes; -1, and the file
/// removed, where it is not a regular file of one link that we may write (a hard link to
/// another's file would be written through).
int open_to_write_over(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_DIRECT);
  struct stat status {};
  if (fd >= 0 && ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_nlink == 1) {
    return fd;
  }
  if (fd >= 0) ::close(fd);
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return -1;
}

/// The jobs of one write() over up to kWriters threads, each with a bounce buffer for what is
/// not aligned in memory; partial pages one at a time.
class Writers {
public:
  Writers(int fd, std::string where) : fd_(fd), where_(std::move(where)) {}

  void run(const std::vector<Job>& jobs) {
    const auto whole =
        std::count_if(jobs.begin(), jobs.end(), [](const Job& j) { return !j.partial; });
    const auto threads = std::clamp<std::ptrdiff_t>(whole, 1, kWriters);
    std::vector<std::jthread> others;
    try {
      for (std::ptrdiff_t t = 1; t < threads; ++t)
        others.emplace_back([&] { work(jobs); });
    } catch (const std::system_error&) {
      // No more threads: those started and this one take the jobs left.
    } catch (const std::bad_alloc&) {
      // No memory for another thread's state: likewise.
    }
    work(jobs);
    others.clear(); // joins
    if (failure_) std::rethrow_exception(failure_);
  }

private:
  void work(const std::vector<Job>& jobs) {
    AlignedBytes bounce; // grown to the largest job that needs it
    std::int64_t bounce_size = 0;
    try {
      for (std::size_t i = next_++; i < jobs.size() && !failed_; i = next_++) {
        const Job& job = jobs[i];
        if (job.partial) {
          patch(job);
          continue;
        }
        const auto size = static_cast<std::int64_t>(job.from.size());
        if (reinterpret_cast<std::uintptr_t>(job.from.data()) % kPage == 0) {
          write_pages(fd_, job.from.data(), size, job.offset, where_);
          continue;
        }
        if (bounce_size < size) {
          bounce = aligned_bytes(size);
          bounce_size = size;
        }
        std::memcpy(bounce.get(), job.from.data(), job.from.size());
        write_pages(fd_, bounce.get(), size, job.offset, where_);
      }
    } catch (...) {
      const std::scoped_lock lock(failure_mutex_);
      if (!failure_) failure_ = std::current_exception();
      failed_ = true;
    }
  }

  /// Reads the page that holds `job`, patches its bytes in, writes it back.
  void patch(const Job& job) {
    const std::scoped_lock lock(page_mutex_);
    if (!page_) page_ = aligned_bytes(kPage);
    const std::int64_t start = job.offset / kPage * kPage;
    read_page(fd_, page_.get(), start, where_);
    std::memcpy(page_.get() + (job.offset - start), job.from.data(), job.from.size());
    write_pages(fd_, page_.get(), kPage, start, where_);
  }

  int fd_;
  std::string where_;
  std::atomic<std::size_t> next_ = 0;
  std::atomic<bool> failed_ = false;
  std::mutex failure_mutex_;
  std::exception_ptr failure_;
  std::mutex page_mutex_;
  AlignedBytes page_;
};

} // namespace

DirectFileWriter::DirectFileWriter(const std::filesystem::path& path, std::int64_t size,
                                   DirectFileWriter* before)
    : file_(path), size_(size) {
  if (before != nullptr && before->fd_ < 0 && file_.adopt(before->file_)) {
    fd_ = open_to_write_over(file_.temporary());
  }
  if (fd_ < 0) {
    fd_ = ::open(file_.temporary().c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_DIRECT, 0644);
  }
  if (fd_ < 0 && errno == EINVAL) {
    throw Error("cannot write " + path.string() +
                " past the page cache: its file system takes no direct I/O (O_DIRECT)");
  }
  if (fd_ < 0) throw Error("cannot write " + path.string() + ": " + os_reason());
  // Reserved first, to the end of its last page (finish() cuts it to its size): a disk too
  // small fails here rather than midway, the last page is written whole within the file,
  // and direct writes into reserved blocks go on side by side where writes into a hole wait
  // for one another. A file written over has its blocks; it may lack some at its end.
  if (const int error = ::posix_fallocate(fd_, 0, whole_pages(size)); error != 0) {
    ::close(fd_);
    throw Error("cannot reserve " + std::to_string(size) + " bytes for " + path.string() + ": " +
                os_reason(error));
  }
}

DirectFileWriter::~DirectFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void DirectFileWriter::write(std::span<const Piece> pieces) {
  for (const auto& piece : pieces) {
    const auto size = static_cast<std::int64_t>(piece.bytes.size());
    if (piece.offset < 0 || size > size_ || piece.offset > size_ - size) {
      throw Error("cannot write " + file_.path().string() + ": bytes " +
                  std::to_string(piece.offset) + " + " + std::to_string(size) +
                  " lie outside its " + std::to_string(size_));
    }
  }
  Writers(fd_, file_.path().string()).run(jobs_of(pieces));
}

void DirectFileWriter::finish() {
  if (::ftruncate(fd_, size_) != 0) {
    throw Error("cannot cut " + file_.path().string() + " to its size: " + os_reason());
  }
}

void DirectFileWriter::commit() {
  finish();
  file_.put_in_place(fd_, TemporaryBeside::Replaced::kept);
}

bool takes_direct_io(const std::filesystem::path& folder) {
  const TemporaryBeside probe(folder / "lifebench-direct-probe"); // removed when done
  const int fd =
      ::open(probe.temporary().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_DIRECT, 0644);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

} // namespace lifebench
