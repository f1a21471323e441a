// Universe files (".lbu"): bit-packed square-grid universes too large for memory,
// read and written a band of rows at a time (seed 003 Section 8 keeps its 2^38-cell
// universe on disk). Layout, little-endian:
//
//   lifebench-universe 1\n          header lines, padded with spaces to
//   rule B3/S23:T1048576,1048576\n  kUniverseDataOffset - 1 bytes, then '\n'
//   generation 16384\n
//   [origin 0123456789abcdef\n]     the run that wrote it, where a streamed run did
//   seal 0123456789abcdef\n         a hash of the lines above: an edited header is refused
//   <rows>                          height rows of words_per_row<uint64_t>(width)
//                                   words, packed as pack_rows() packs them
//
// The data starts at a page boundary, leaving room for page-aligned reads (mmap,
// O_DIRECT) of whole rows.
// A file is only ever written whole, through a temporary renamed into place. Both
// directions go through memory maps: a sub-universe's rows are copied, not read or
// written by a call each.
#pragma once

#include "lifebench/problem.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <variant>

namespace lifebench {

inline constexpr std::int64_t kUniverseDataOffset = 4096;

struct UniverseHeader {
  Problem problem; ///< a square-grid rule on a bounded grid
  std::uint64_t generation = 0;
  /// The run whose pass wrote the file, where a run streams it (a hash of its input and
  /// parameters, harness/src/run.cpp): `run --resume` goes on only from its own run's files.
  std::optional<std::uint64_t> origin = std::nullopt;

  [[nodiscard]] std::int64_t words_per_row() const; ///< 64-bit words of one row
  [[nodiscard]] std::int64_t file_bytes() const;    ///< the whole file's size
};

/// An open universe file, checked: its header parses and its size is exactly what the
/// header implies (a truncated or extended file is refused). Throws Error.
class UniverseReader {
public:
  explicit UniverseReader(const std::filesystem::path& path);
  ~UniverseReader();
  UniverseReader(const UniverseReader&) = delete;
  UniverseReader& operator=(const UniverseReader&) = delete;

  [[nodiscard]] const UniverseHeader& header() const { return header_; }
  /// A hash of the whole file, header and rows, the same on every machine.
  [[nodiscard]] std::uint64_t content_hash() const;

  /// Rows y .. y + count - 1 (0 <= y, y + count <= height) into `out`, which holds
  /// count * words_per_row() words.
  void read_rows(std::int64_t y, std::int64_t count, std::span<std::uint64_t> out);
  /// Words x .. x + words - 1 of rows y .. y + rows - 1 (within the universe) into
  /// `out`, which holds rows * words words, row after row.
  void read_block(std::int64_t y, std::int64_t rows, std::int64_t x, std::int64_t words,
                  std::span<std::uint64_t> out);

private:
  std::filesystem::path path_;
  std::span<const std::byte> map_; ///< the whole file, mapped
  UniverseHeader header_;
};

/// The identity of a streamed run (UniverseHeader::origin), the same on every machine: a hash
/// of its input's UniverseReader::content_hash() and of `run`, a text naming everything else
/// the run depends on.
std::uint64_t universe_origin(std::uint64_t input_hash, std::string_view run);

/// Receives the rows of a universe in order, any number of whole rows per call.
using RowSink = std::function<void(std::span<const std::uint64_t>)>;

/// Writes a universe to `path` atomically: `rows` must emit all its rows, in order,
/// through the sink it is given. If it throws or emits too few or too many rows,
/// `path` is left as it was and the error propagates.
void write_universe(const std::filesystem::path& path, const UniverseHeader& header,
                    const std::function<void(const RowSink&)>& rows);

/// How a universe file is written: through the page cache (a memory map, written to the disk
/// as the system chooses and synced by commit()), or past it (DirectFileWriter: each block
/// handed to the disk when write() returns, nothing of the file left in the host's memory).
enum class FileWrites { cached, direct };

/// Receives a block of a universe (rows y .. y + rows - 1, words x .. x + words - 1 of
/// each, row after row in the span), in any order.
using BlockSink = std::function<void(std::int64_t y, std::int64_t rows, std::int64_t x,
                                     std::int64_t words, std::span<const std::uint64_t>)>;

/// A universe written block by block (sub-universes, in any order) into a temporary
/// beside `path`, renamed into place by commit(). Destroyed uncommitted, `path` is left
/// as it was. The blocks must cover the universe once (their words must add up to it).
class UniverseBlockWriter {
public:
  /// With direct writes and `before`, a direct writer committed before this one, the file its
  /// commit replaced is written over (DirectFileWriter): a pass of an out-of-core run writes
  /// over the pass before the last.
  UniverseBlockWriter(const std::filesystem::path& path, const UniverseHeader& header,
                      FileWrites writes = FileWrites::cached,
                      UniverseBlockWriter* before = nullptr);

  /// A BlockSink's block.
  void write(std::int64_t y, std::int64_t rows, std::int64_t x, std::int64_t words,
             std::span<const std::uint64_t> block);
  /// Throws unless the blocks written cover the universe; the temporary then holds it
  /// whole and may be read (UniverseReader) before commit(), e.g. while it syncs.
  void finish();
  [[nodiscard]] const std::filesystem::path& temporary() const;
  /// finish(), then the temporary to the disk and into place; with direct writes the file
  /// replaced stays until this writer is destroyed (DirectFileWriter::commit()).
  void commit();

private:
  using File = std::variant<MappedFileWriter, DirectFileWriter>;
  static File open(const std::filesystem::path& path, std::int64_t size, FileWrites writes,
                   UniverseBlockWriter* before);

  std::filesystem::path path_;
  UniverseHeader header_;
  File file_;
  std::int64_t written_ = 0; ///< words
};

/// write_universe() for blocks (sub-universes) that arrive in any order: `blocks` must
/// emit blocks that cover the universe once (their words must add up to the whole).
void write_universe_blocks(const std::filesystem::path& path, const UniverseHeader& header,
                           const std::function<void(const BlockSink&)>& blocks);

/// write_universe() of `soup` (of `problem`'s shape) at generation 0, a row at a time: a
/// universe too large for memory made from its seed.
void write_soup_universe(const std::filesystem::path& path, const Problem& problem,
                         const SoupSpec& soup);

} // namespace lifebench
