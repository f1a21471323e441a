// Universe files: the header, checked reads of row bands, atomic whole-file writes.
#include "lifebench/universe.hpp"

#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/state_io.hpp"
#include "mix.hpp"
#include "text.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <variant>
#include <vector>

namespace lifebench {
namespace {

using detail::os_reason;

static_assert(std::endian::native == std::endian::little,
              "universe files hold little-endian words, written as they lie in memory");

constexpr std::string_view kMagic = "lifebench-universe 1";

/// The seal of a header's lines: a hash of their text, so that a line edited by hand (a
/// checkpoint's generation moved on, say) no longer matches it.
std::uint64_t seal_of(std::string_view lines) {
  return detail::hash_bytes(detail::golden_gamma,
                            {reinterpret_cast<const std::uint8_t*>(lines.data()), lines.size()});
}

std::string header_text(const UniverseHeader& header) {
  std::string text = std::string(kMagic) + "\nrule " + header.problem.to_string() +
                     "\ngeneration " + std::to_string(header.generation) + "\n";
  if (header.origin) text += "origin " + detail::hex(*header.origin, 16) + "\n";
  text += "seal " + detail::hex(seal_of(text), 16) + "\n";
  if (static_cast<std::int64_t>(text.size()) >= kUniverseDataOffset) {
    throw Error("universe header too long: " + std::to_string(text.size()) + " bytes");
  }
  text.resize(static_cast<std::size_t>(kUniverseDataOffset - 1), ' ');
  return text + "\n";
}

/// The header's "key value" line `index`, or an Error naming what is wrong.
std::string_view line_value(const std::vector<std::string_view>& lines, std::size_t index,
                            std::string_view key, const std::string& where) {
  if (index >= lines.size() || !lines[index].starts_with(key) ||
      lines[index].size() <= key.size() || lines[index][key.size()] != ' ') {
    throw Error(where + ": header line " + std::to_string(index + 1) + " must be \"" +
                std::string(key) + " ...\"");
  }
  return lines[index].substr(key.size() + 1);
}

UniverseHeader parse_header(std::string_view text, const std::string& where) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) break;
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (lines.empty() || lines[0] != kMagic) {
    throw Error(where + ": not a universe file (it must start with \"" + std::string(kMagic) +
                "\")");
  }
  const RuleSpec spec = parse_rule_spec(line_value(lines, 1, "rule", where));
  if (spec.rule.topology != Topology::square || !spec.shape) {
    throw Error(where + ": the rule must be a square-grid rule on a bounded grid, e.g. "
                        "B3/S23:T1024,1024");
  }
  const std::string_view generation = line_value(lines, 2, "generation", where);
  UniverseHeader header{Problem{spec.rule, *spec.shape, spec.boundary}, 0};
  const auto [end, error] =
      std::from_chars(generation.data(), generation.data() + generation.size(), header.generation);
  if (error != std::errc{} || end != generation.data() + generation.size()) {
    throw Error(where + ": bad generation \"" + std::string(generation) + "\"");
  }
  std::size_t i = 3;
  const auto hex_value = [&](std::string_view key) -> std::optional<std::uint64_t> {
    if (i >= lines.size() || !lines[i].starts_with(key) || lines[i].size() <= key.size() ||
        lines[i][key.size()] != ' ') {
      return std::nullopt;
    }
    const std::string_view digits = lines[i].substr(key.size() + 1);
    std::uint64_t value = 0;
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
    if (digits.size() != 16 || parsed.ec != std::errc{} ||
        parsed.ptr != digits.data() + digits.size()) {
      throw Error(where + ": bad " + std::string(key) + " \"" + std::string(digits) + "\"");
    }
    return value;
  };
  if (const auto origin = hex_value("origin")) {
    header.origin = origin;
    ++i;
  }
  // Files written before the seal have none; one that has it must match its lines.
  if (const auto seal = hex_value("seal")) {
    const auto sealed = static_cast<std::size_t>(lines[i].data() - text.data());
    if (*seal != seal_of(text.substr(0, sealed))) {
      throw Error(where + ": the header was edited after it was written (its seal does not "
                          "match its lines)");
    }
    ++i;
  }
  for (; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(' ') != std::string_view::npos) {
      throw Error(where + ": unexpected header line " + std::to_string(i + 1));
    }
  }
  return header;
}

/// Throws if a row's bits past the width are set: the file is corrupt (or a kernel is).
/// `block` holds rows of `words` words each, the last of them the row's last word.
void check_padding(std::span<const std::uint64_t> block, std::int64_t words,
                   const UniverseHeader& header, std::int64_t first_row, const std::string& where) {
  const std::int64_t width = header.problem.shape.width;
  if (width % 64 == 0) return;
  const std::uint64_t outside = ~std::uint64_t{0} << (width % 64);
  for (std::size_t r = 0; r < block.size() / static_cast<std::size_t>(words); ++r) {
    if ((block[(r + 1) * static_cast<std::size_t>(words) - 1] & outside) != 0) {
      throw Error(where + ": row " + std::to_string(first_row + static_cast<std::int64_t>(r)) +
                  " has cells set past the width " + std::to_string(width));
    }
  }
}

/// Throws unless rows [y, y + rows) x words [x, x + words) lie in the universe and
/// `size` words hold them.
void check_block(const UniverseHeader& header, std::int64_t y, std::int64_t rows, std::int64_t x,
                 std::int64_t words, std::size_t size, const std::string& where) {
  if (y < 0 || rows < 0 || y + rows > header.problem.shape.height || x < 0 || words < 0 ||
      x + words > header.words_per_row() || static_cast<std::int64_t>(size) != rows * words) {
    throw Error(where + ": bad block of rows " + std::to_string(y) + " + " + std::to_string(rows) +
                ", words " + std::to_string(x) + " + " + std::to_string(words) + " (" +
                std::to_string(size) + " words given)");
  }
}

} // namespace

std::int64_t UniverseHeader::words_per_row() const {
  return lifebench::words_per_row<std::uint64_t>(problem.shape.width);
}

std::int64_t UniverseHeader::file_bytes() const {
  const std::int64_t row_bytes = words_per_row() * 8;
  if (problem.shape.height >
      (std::numeric_limits<std::int64_t>::max() - kUniverseDataOffset) / row_bytes) {
    throw Error("universe " + problem.shape.to_string() + " is too large for a file");
  }
  return kUniverseDataOffset + problem.shape.height * row_bytes;
}

UniverseReader::UniverseReader(const std::filesystem::path& path) : path_(path) {
  const std::string where = path.string();
  // Not blocking: a FIFO's open would wait for a writer, and the file is mapped below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw Error("cannot read " + where + ": " + os_reason());
  try {
    struct stat kind {};
    if (::fstat(fd, &kind) != 0) throw Error("cannot read " + where + ": " + os_reason());
    if (!S_ISREG(kind.st_mode)) throw Error(where + ": not a regular file (a universe is mapped)");
    std::string text(static_cast<std::size_t>(kUniverseDataOffset), '\0');
    std::int64_t got = 0;
    while (got < kUniverseDataOffset) {
      const ssize_t n =
          ::read(fd, text.data() + got, static_cast<std::size_t>(kUniverseDataOffset - got));
      if (n < 0) throw Error("cannot read " + where + ": " + os_reason());
      if (n == 0) break;
      got += n;
    }
    if (got < kUniverseDataOffset || text.back() != '\n') {
      if (got >= static_cast<std::int64_t>(kMagic.size()) &&
          std::string_view(text).starts_with(kMagic)) {
        const std::string size = std::to_string(kUniverseDataOffset);
        // All of it read but no line end at its last byte: the header is longer (or the
        // rows start early), not cut short.
        throw Error(where + (got < kUniverseDataOffset
                                 ? ": truncated header (" + std::to_string(got) + " of " + size +
                                       " bytes read)"
                                 : ": the header does not end with a line end at byte " + size +
                                       " (all " + size + " bytes read)"));
      }
      throw Error(where + ": not a universe file (it must start with \"" + std::string(kMagic) +
                  "\")");
    }
    header_ = parse_header(text, where);
    struct stat status {};
    if (::fstat(fd, &status) != 0)
      throw Error("cannot read the size of " + where + ": " + os_reason());
    const std::int64_t want = header_.file_bytes();
    if (static_cast<std::int64_t>(status.st_size) != want) {
      throw Error(
          where + ": " + std::to_string(status.st_size) + " bytes, but " +
          header_.problem.shape.to_string() + " needs " + std::to_string(want) +
          (static_cast<std::int64_t>(status.st_size) < want ? " (truncated)" : " (trailing data)"));
    }
    // Mapped: a block is copied out of the page cache with no call per row.
    void* map = ::mmap(nullptr, static_cast<std::size_t>(want), PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) throw Error("cannot map " + where + ": " + os_reason());
    map_ = {static_cast<const std::byte*>(map), static_cast<std::size_t>(want)};
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

std::uint64_t UniverseReader::content_hash() const {
  return detail::hash_bytes(0, {reinterpret_cast<const std::uint8_t*>(map_.data()), map_.size()});
}

std::uint64_t universe_origin(std::uint64_t input_hash, std::string_view run) {
  return detail::hash_bytes(input_hash,
                            {reinterpret_cast<const std::uint8_t*>(run.data()), run.size()});
}

UniverseReader::~UniverseReader() {
  ::munmap(const_cast<std::byte*>(map_.data()), map_.size());
}

void UniverseReader::read_rows(std::int64_t y, std::int64_t count, std::span<std::uint64_t> out) {
  read_block(y, count, 0, header_.words_per_row(), out);
}

void UniverseReader::read_block(std::int64_t y, std::int64_t rows, std::int64_t x,
                                std::int64_t words, std::span<std::uint64_t> out) {
  const std::int64_t row_words = header_.words_per_row();
  check_block(header_, y, rows, x, words, out.size(), path_.string());
  for (std::int64_t i = 0; i < rows; ++i) {
    std::memcpy(out.data() + i * words,
                map_.data() + kUniverseDataOffset + ((y + i) * row_words + x) * 8,
                static_cast<std::size_t>(words) * 8);
  }
  if (x + words == row_words) check_padding(out, words, header_, y, path_.string());
}

void write_universe(const std::filesystem::path& path, const UniverseHeader& header,
                    const std::function<void(const RowSink&)>& rows) {
  const std::int64_t row_words = header.words_per_row();
  const std::int64_t height = header.problem.shape.height;
  write_universe_blocks(path, header, [&](const BlockSink& sink) {
    std::int64_t written = 0; // rows
    rows([&](std::span<const std::uint64_t> words) {
      const auto size = static_cast<std::int64_t>(words.size());
      if (size % row_words != 0 || written + size / row_words > height) {
        throw Error(path.string() + ": " + std::to_string(size) + " words after row " +
                    std::to_string(written) + " are not whole rows of the " +
                    header.problem.shape.to_string() + " universe");
      }
      sink(written, size / row_words, 0, row_words, words);
      written += size / row_words;
    });
  });
}

UniverseBlockWriter::File UniverseBlockWriter::open(const std::filesystem::path& path,
                                                    std::int64_t size, FileWrites writes,
                                                    UniverseBlockWriter* before) {
  if (writes == FileWrites::direct) {
    // Written over, the file must be written whole: the header is its first page, and the
    // blocks must cover the universe (finish() counts their words, callers keep them apart).
    auto* over = before != nullptr ? std::get_if<DirectFileWriter>(&before->file_) : nullptr;
    return File(std::in_place_type<DirectFileWriter>, path, size, over);
  }
  return File(std::in_place_type<MappedFileWriter>, path, size);
}

UniverseBlockWriter::UniverseBlockWriter(const std::filesystem::path& path,
                                         const UniverseHeader& header, FileWrites writes,
                                         UniverseBlockWriter* before)
    : path_(path), header_(header), file_(open(path, header.file_bytes(), writes, before)) {
  const std::string text = header_text(header);
  if (auto* direct = std::get_if<DirectFileWriter>(&file_)) {
    const DirectFileWriter::Piece piece{0, std::as_bytes(std::span(text))};
    direct->write({&piece, 1});
  } else {
    std::memcpy(std::get<MappedFileWriter>(file_).bytes().data(), text.data(), text.size());
  }
}

const std::filesystem::path& UniverseBlockWriter::temporary() const {
  return std::visit(
      [](const auto& file) -> const std::filesystem::path& { return file.temporary(); }, file_);
}

void UniverseBlockWriter::write(std::int64_t y, std::int64_t rows, std::int64_t x,
                                std::int64_t words, std::span<const std::uint64_t> block) {
  const std::int64_t row_words = header_.words_per_row();
  check_block(header_, y, rows, x, words, block.size(), path_.string());
  if (x + words == row_words) check_padding(block, words, header_, y, path_.string());
  const std::int64_t first = kUniverseDataOffset + (y * row_words + x) * 8;
  if (auto* direct = std::get_if<DirectFileWriter>(&file_)) {
    // Whole rows lie one after another in the file: one piece.
    const std::int64_t count = words == row_words ? 1 : rows;
    const std::int64_t piece_words = words == row_words ? rows * words : words;
    std::vector<DirectFileWriter::Piece> pieces(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
      pieces[static_cast<std::size_t>(i)] = {
          first + i * row_words * 8,
          std::as_bytes(block.subspan(static_cast<std::size_t>(i * words),
                                      static_cast<std::size_t>(piece_words)))};
    }
    direct->write(pieces);
  } else {
    const auto& mapped = std::get<MappedFileWriter>(file_);
    std::byte* data = mapped.bytes().data();
    for (std::int64_t i = 0; i < rows; ++i) {
      std::memcpy(data + first + i * row_words * 8, block.data() + i * words,
                  static_cast<std::size_t>(words) * 8);
    }
    mapped.start_writeback(first, ((rows - 1) * row_words + words) * 8);
  }
  written_ += rows * words;
}

void UniverseBlockWriter::finish() {
  const std::int64_t total = header_.problem.shape.height * header_.words_per_row();
  if (written_ != total) {
    throw Error(path_.string() + ": " + std::to_string(written_) + " of " + std::to_string(total) +
                " words written");
  }
  if (auto* direct = std::get_if<DirectFileWriter>(&file_)) direct->finish();
}

void UniverseBlockWriter::commit() {
  finish();
  std::visit([](auto& file) { file.commit(); }, file_);
}

void write_universe_blocks(const std::filesystem::path& path, const UniverseHeader& header,
                           const std::function<void(const BlockSink&)>& blocks) {
  UniverseBlockWriter file(path, header);
  blocks([&](std::int64_t y, std::int64_t rows, std::int64_t x, std::int64_t words,
             std::span<const std::uint64_t> block) { file.write(y, rows, x, words, block); });
  file.commit();
}

void write_soup_universe(const std::filesystem::path& path, const Problem& problem,
                         const SoupSpec& soup) {
  if (soup.shape != problem.shape) {
    throw Error("a " + soup.shape.to_string() + " soup for the " + problem.shape.to_string() +
                " universe of " + problem.to_string());
  }
  if (problem.rule.topology != Topology::square || problem.shape.depth != 1) {
    throw Error(path.string() + ": a universe file holds 2D square-grid states only, not " +
                problem.to_string());
  }
  const UniverseHeader header{problem, 0};
  // Bands of about 16 MiB: made on every core, then written.
  const std::int64_t band =
      std::max<std::int64_t>(1, (std::int64_t{16} << 20) / 8 / header.words_per_row());
  write_universe(path, header, [&](const RowSink& sink) {
    std::vector<std::uint64_t> rows;
    for (std::int64_t y = 0; y < problem.shape.height; y += band) {
      const std::int64_t count = std::min(band, problem.shape.height - y);
      rows.resize(static_cast<std::size_t>(count * header.words_per_row()));
      soup_rows(soup, y, count, rows);
      sink(rows);
    }
  });
}

} // namespace lifebench
