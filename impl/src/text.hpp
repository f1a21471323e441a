// Small text helpers shared by the parsers of rules, shapes, soups and files.
#pragma once

#include "lifebench/error.hpp"

#include <cerrno>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifebench::detail {

/// The number `text` spells in decimal digits only (no sign, no spaces), if it fits.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

/// `text` split at every `separator`; an empty text gives one empty part.
std::vector<std::string_view> split(std::string_view text, char separator);

/// A word of a line and where it starts (0-based).
struct Word {
  std::string_view text;
  std::size_t column = 0;
};

/// The words of `line`, separated by spaces and tabs.
std::vector<Word> split_words(std::string_view line);
/// The same into `words` (emptied first), reusing its memory: for a reader that splits every
/// line of a file (a Life 1.06 file lists a cell a line).
void split_words(std::string_view line, std::vector<Word>& words);

/// The integer `text` spells (an optional '-', then decimal digits only), if its magnitude is
/// at most `limit`.
std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t limit);

/// The ParseError for `source` at a 0-based line and column (shown 1-based).
ParseError parse_error(const std::string& source, std::size_t line, std::size_t column,
                       const std::string& what);

/// A file's text read forward through a window of a few KiB, so that a reader holds no
/// copy of the whole (a gzipped file is inflated as it is read, gzip.hpp). Throws Error
/// naming the source on a read error.
class TextCursor {
public:
  TextCursor(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  [[nodiscard]] bool at_end() { return pos_ == end_ && !fill(1); }
  /// The character at the cursor; only where !at_end().
  [[nodiscard]] char peek() const { return window_[pos_]; }
  /// Moves past the character at the cursor; only where !at_end().
  void skip() { ++pos_; }
  /// Whether the text at the cursor starts with `word`.
  [[nodiscard]] bool looking_at(std::string_view word);
  /// Bytes moved past so far.
  [[nodiscard]] std::uint64_t offset() const { return dropped_ + pos_; }
  /// The next line into `line`, without its end: "\n", "\r\n" and "\r" each end one, as
  /// in Golly; a last line without an end counts, an end at the very end starts no new
  /// line. False at the end of the text.
  bool read_line(std::string& line);
  /// Moves to the end of the line (before its "\n" or "\r", or to the end of the text); the
  /// characters moved past.
  std::uint64_t skip_to_line_end() { return to_line_end(nullptr); }

private:
  /// Moves to the end of the line, appending what it moves past to `line` where given.
  std::uint64_t to_line_end(std::string* line);
  /// Reads until `want` characters lie past the cursor or the text ends; whether they do.
  bool fill(std::size_t want);

  std::istream& in_;
  std::string source_;
  std::vector<char> window_ = std::vector<char>(std::size_t{1} << 16);
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  std::uint64_t dropped_ = 0; ///< bytes moved out of the window's front
};

/// Throws, naming `source` and `what`, unless `count` more items of `item_bytes` each fit into
/// a quarter of this machine's memory: a reader keeps what a file defines (a Life file's runs,
/// a macrocell file's nodes), which a small file may otherwise make larger than the machine.
void require_room(std::uint64_t count, std::size_t item_bytes, const std::string& source,
                  const std::string& what);

/// The low `digits` hexadecimal digits of `value`, lowercase, leading zeros kept.
std::string hex(std::uint64_t value, int digits);

/// The system's words for the error number `error` (errno where not given), for messages.
std::string os_reason(int error = errno);

} // namespace lifebench::detail
