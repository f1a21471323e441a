// Small text helpers shared by the parsers of rules, shapes, soups and files.
#pragma once

#include "lifebench/error.hpp"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifebench::detail {

/// The number `text` spells in decimal digits only (no sign, no spaces), if it fits.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

/// `text` split at every `separator`; an empty text gives one empty part.
std::vector<std::string_view> split(std::string_view text, char separator);

/// The lines of `text`: "\n", "\r\n" and "\r" each end one, as in Golly; a last line
/// without an end counts, an end at the very end starts no new line.
std::vector<std::string_view> split_lines(std::string_view text);

/// A word of a line and where it starts (0-based).
struct Word {
  std::string_view text;
  std::size_t column = 0;
};

/// The words of `line`, separated by spaces and tabs.
std::vector<Word> split_words(std::string_view line);

/// The integer `text` spells (an optional '-', then decimal digits only), if its magnitude is
/// at most `limit`.
std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t limit);

/// The ParseError for `source` at a 0-based line and column (shown 1-based).
ParseError parse_error(const std::string& source, std::size_t line, std::size_t column,
                       const std::string& what);

/// The whole of `in`; throws Error naming `source` on a read error.
std::string read_text(std::istream& in, const std::string& source);

/// The low `digits` hexadecimal digits of `value`, lowercase, leading zeros kept.
std::string hex(std::uint64_t value, int digits);

} // namespace lifebench::detail
