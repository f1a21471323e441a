// Files the CLI reads and writes, by extension: ".rle" (2D, rule and bound in
// the header), ".lbu" (2D universe file, universe.hpp; read whole here) and
// ".dat"/".bin" (3D HPCGame format, rule B6/S567/3D unless given); read only, Golly's
// ".lif"/".life" (Life 1.05 and 1.06) and ".mc" (macrocell), and ".rle", ".lif", ".life"
// and ".mc" gzipped (".rle.gz"). A pattern whose rule gives no bounded grid is Golly's
// unbounded plane (plane.hpp); a file that names no rule runs Conway's, as in Golly.
// Outputs are written to a temporary file beside the target and renamed into
// place, so a failure never leaves a half-written file.
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/plane.hpp"
#include "lifebench/problem.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>

namespace lifebench {

/// A universe at some generation.
struct State {
  Problem problem;
  Grid grid;
  std::uint64_t generation = 0;
  /// Where the grid stands for Golly's unbounded plane: Golly's coordinates of its top-left
  /// cell. Absent for a bounded grid.
  std::optional<Position> origin = std::nullopt;
};

/// How read_state() reads a file.
struct ReadOptions {
  /// Replaces the file's rule (a rule spec, e.g. "B3/S23:T64,64").
  std::optional<std::string> rule = std::nullopt;
  /// How a pattern with no bounded grid is put on one.
  PlaneFit plane{};
  /// Told, in one line, where `rule` differs from the rule the file names.
  std::function<void(const std::string&)> warn{};
  /// Called with the problem of a 2D grid before its cells are made (a plane's after
  /// plane_grid's own checks): throws to refuse it, e.g. where a run on it would not fit in
  /// memory, before a few bytes that claim a huge grid make one.
  std::function<void(const Problem&)> before_grid{};
};

/// Loads a state. Throws Error if the pattern does not fit into its bounded grid, or its
/// plane cannot be made.
State read_state(const std::filesystem::path& path, const ReadOptions& options);

/// read_state() with `rule_override` for the file's rule and, for a pattern with no bounded
/// grid, the plane of its box with a dead boundary.
State read_state(const std::filesystem::path& path,
                 const std::optional<std::string>& rule_override);

/// Throws unless the format `path`'s extension names can hold `problem`'s states (`unbounded`:
/// states of Golly's unbounded plane, which RLE alone keeps) and `path` names a file in a
/// folder that exists, so that a caller can refuse before it simulates.
void require_writable(const std::filesystem::path& path, const Problem& problem,
                      bool unbounded = false);

/// Writes a state in the format its extension names, atomically.
void write_state(const std::filesystem::path& path, const State& state);

/// Writes a file through `write` into a temporary beside `path`, then renames it
/// into place; on any exception the temporary is removed and `path` is untouched. A symbolic
/// link `path` is written through: the temporary lies beside the file it leads to, and is
/// renamed onto that file; the link stays.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

/// Notes a temporary file for remove_temporaries_in_progress() for as long as it lives (up
/// to 16 at once): the writers below note theirs, and a caller may note a file it removes
/// when done.
class TemporaryInProgress {
public:
  explicit TemporaryInProgress(const std::filesystem::path& temporary);
  ~TemporaryInProgress();
  TemporaryInProgress(const TemporaryInProgress&) = delete;
  TemporaryInProgress& operator=(const TemporaryInProgress&) = delete;

private:
  int slot_;
};

/// A file the caller makes and removes when done with it (a run's working universe, its
/// ranks' report): removed when destroyed, and noted meanwhile (TemporaryInProgress), so that
/// a signal's handler removes it too.
class RemovedWhenDone {
public:
  explicit RemovedWhenDone(std::filesystem::path path);
  ~RemovedWhenDone();
  RemovedWhenDone(const RemovedWhenDone&) = delete;
  RemovedWhenDone& operator=(const RemovedWhenDone&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
  TemporaryInProgress noted_{path_};
};

/// The temporary a file writer fills beside `path` (beside the file a symbolic link `path`
/// leads to: the link is written through), noted while it lives (TemporaryInProgress) and
/// removed when destroyed unless put in place.
class TemporaryBeside {
public:
  explicit TemporaryBeside(const std::filesystem::path& path);
  ~TemporaryBeside();
  TemporaryBeside(const TemporaryBeside&) = delete;
  TemporaryBeside& operator=(const TemporaryBeside&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; } ///< as given
  [[nodiscard]] const std::filesystem::path& temporary() const { return temporary_; }
  /// What put_in_place() does with the file it replaces: removes it, or keeps it under the
  /// temporary's name (exchanged with it in one step, RENAME_EXCHANGE; removed where the file
  /// system cannot), removed with this object unless another adopt()s it first.
  enum class Replaced { removed, kept };

  /// Syncs the temporary through `fd`, its writer's descriptor, closes it (-1 after), renames
  /// it onto the file and syncs the folder.
  void put_in_place(int& fd, Replaced replaced = Replaced::removed);
  /// Moves the file at `other`'s temporary (kept by put_in_place()), if any, to this one's;
  /// whether there was one.
  bool adopt(TemporaryBeside& other);

private:
  std::filesystem::path path_;
  std::filesystem::path target_; ///< `path`, or the file the link `path` leads to
  std::filesystem::path temporary_;
  TemporaryInProgress in_progress_;
  bool placed_ = false;
};

/// A file of `size` bytes written in place through a memory map, into a temporary
/// beside `path` that commit() renames into place with write_file_atomically()'s
/// guarantees (a link written through, too). The space is reserved first, so a disk too small fails
/// in the constructor with one error rather than midway. Destroyed uncommitted, it removes the
/// temporary and leaves `path` as it was.
class MappedFileWriter {
public:
  MappedFileWriter(const std::filesystem::path& path, std::int64_t size);
  ~MappedFileWriter();
  MappedFileWriter(const MappedFileWriter&) = delete;
  MappedFileWriter& operator=(const MappedFileWriter&) = delete;

  /// The file's bytes (zeros where nothing was written); valid until commit().
  [[nodiscard]] std::span<std::byte> bytes() const { return bytes_; }
  /// The temporary: whatever was written is readable there before commit().
  [[nodiscard]] const std::filesystem::path& temporary() const { return file_.temporary(); }
  /// Starts writing bytes [offset, offset + length) to the disk without waiting, so
  /// that commit() has less left to do.
  void start_writeback(std::int64_t offset, std::int64_t length) const;
  /// Unmaps the file, syncs it to the disk, renames it to `path` and syncs the folder.
  void commit();

private:
  TemporaryBeside file_;
  int fd_ = -1;
  std::span<std::byte> bytes_;
};

/// A file of `size` bytes written past the host's page cache (O_DIRECT), into a temporary beside
/// `path` that commit() puts in place with MappedFileWriter's guarantees (by an exchange,
/// which keeps the file replaced, see commit()). Each write()
/// has handed its bytes to the disk when it returns (commit()'s sync makes them durable),
/// written by several threads at once (a disk reaches its rate only with many writes in
/// flight), so a file larger than memory goes to the disk at the disk's rate and leaves
/// nothing in the page cache to flush or to read back. Pieces need no alignment: whole 4 KiB
/// pages go straight to the disk, a page a piece only partly covers is read, patched and
/// written back, one such page at a time. One write() at a time. Throws Error, on a file
/// system that takes no direct I/O too (tmpfs takes it since Linux 6.6, but keeps the file
/// in memory all the same).
class DirectFileWriter {
public:
  /// `bytes` to the file from byte `offset` on. The pieces of one file must not overlap.
  struct Piece {
    std::int64_t offset = 0;
    std::span<const std::byte> bytes;
  };

  /// With `before`, a writer of the same `path` committed before this one, the file its
  /// commit replaced is written over, where there is one and it is a regular file of one link
  /// that we may write (else a fresh file is made). Its blocks are the file system's already,
  /// where a fresh file's reserved blocks are converted as direct writes reach them, and it is
  /// not freed. The third and fourth passes of a 4 GiB universe of 64 KiB rows in 4 x 4 blocks
  /// on this project's development machine (ext4 on a virtual disk), each committed before the
  /// next: 0.30 to 0.54 GB/s written over (four runs), 0.16 to 0.19 into fresh files with the
  /// replaced one freed (three runs); the first two 0.27 to 0.36. Hand over only a writer whose
  /// replaced file the caller wrote itself, never the file that was there before it began, and
  /// only where the pieces cover the file: bytes no piece covers keep what that file held.
  DirectFileWriter(const std::filesystem::path& path, std::int64_t size,
                   DirectFileWriter* before = nullptr);
  ~DirectFileWriter();
  DirectFileWriter(const DirectFileWriter&) = delete;
  DirectFileWriter& operator=(const DirectFileWriter&) = delete;

  /// Writes `pieces` (within the file) and returns when the disk has them.
  void write(std::span<const Piece> pieces);
  /// The temporary: whatever was written is readable there before commit(), once finish()
  /// has cut it to its size.
  [[nodiscard]] const std::filesystem::path& temporary() const { return file_.temporary(); }
  /// Cuts the temporary, reserved to the end of its last page, to its size.
  void finish();
  /// finish(), then syncs the file, puts it in place of `path` and syncs the folder. The file
  /// it replaces stays, under the temporary's name, for a writer after it to write over, and
  /// is removed with this writer.
  void commit();

private:
  TemporaryBeside file_;
  std::int64_t size_;
  int fd_ = -1;
};

/// Whether files in `folder` can be written past the page cache (DirectFileWriter): a file
/// created there with O_DIRECT, and removed. False where the file system refuses O_DIRECT
/// (tmpfs before Linux 6.6, some network and FUSE file systems) or the folder is not writable.
bool takes_direct_io(const std::filesystem::path& folder);

/// Drops `file`'s pages from the host's page cache (posix_fadvise DONTNEED), so that what
/// reads it next comes from the disk, as on a machine whose memory cannot hold it. Only pages
/// already on the disk go: call it after the file is synced (MappedFileWriter::commit()).
/// A file system that keeps files in memory (tmpfs) keeps them. Throws Error.
void drop_from_page_cache(const std::filesystem::path& file);

/// Removes the temporaries that write_file_atomically(), MappedFileWriter and DirectFileWriter
/// are writing now, the files a committed DirectFileWriter replaced, and the others noted
/// (TemporaryInProgress): for a handler of a signal that ends the
/// process midway, so that it leaves none behind. Async-signal-safe: it only reads fixed
/// memory and calls unlink().
void remove_temporaries_in_progress() noexcept;

/// Removes the temporaries of write_file_atomically(path) that writers killed before the
/// rename left beside `path` (each may be as large as the file).
void remove_temporaries_beside(const std::filesystem::path& path);

/// Whether remove_temporaries_beside(path) would remove `file`.
[[nodiscard]] bool is_temporary_beside(const std::filesystem::path& file,
                                       const std::filesystem::path& path);

/// Whether `path` names a universe file (".lbu", in any case).
[[nodiscard]] bool is_universe_file(const std::filesystem::path& path);

} // namespace lifebench
