#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <iterator>

namespace lifebench::detail {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  // from_chars alone would accept what follows a number; an unsigned target
  // already refuses a sign, and the digit check refuses a leading space.
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find_first_of("\r\n");
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    const bool crlf = text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n';
    text.remove_prefix(end + (crlf ? 2 : 1));
  }
  return lines;
}

std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t at = 0;
  for (;;) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) return words;
    const auto end = std::min(line.find_first_of(" \t", at), line.size());
    words.push_back({line.substr(at, end - at), at});
    at = end;
  }
}

std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t limit) {
  const bool negative = text.starts_with('-');
  if (negative) text.remove_prefix(1);
  const auto magnitude = parse_decimal(text);
  if (!magnitude || *magnitude > static_cast<std::uint64_t>(limit)) return std::nullopt;
  const auto value = static_cast<std::int64_t>(*magnitude);
  return negative ? -value : value;
}

ParseError parse_error(const std::string& source, std::size_t line, std::size_t column,
                       const std::string& what) {
  const auto shown = [](std::size_t n) {
    return static_cast<int>(std::min<std::size_t>(n, INT_MAX - 1) + 1);
  };
  return {source, shown(line), shown(column), what};
}

std::string read_text(std::istream& in, const std::string& source) {
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw Error(source + ": read error");
  return text;
}

std::string hex(std::uint64_t value, int digits) {
  std::string text(static_cast<std::size_t>(digits), '0');
  for (auto digit = text.rbegin(); digit != text.rend(); ++digit, value >>= 4U) {
    *digit = "0123456789abcdef"[value & 15U];
  }
  return text;
}

} // namespace lifebench::detail

namespace lifebench {

std::string quote(std::string_view text, char mark) {
  constexpr std::size_t kLongest = 80;
  const bool cut = text.size() > kLongest;
  if (cut) {
    std::size_t end = kLongest;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U)
      --end; // not inside a UTF-8 character
    text = text.substr(0, end);
  }
  // Appending, as `"literal" + std::string` trips GCC 12's false -Wrestrict.
  std::string quoted(1, mark);
  quoted += text;
  if (cut) quoted += "…";
  quoted += mark;
  return quoted;
}

} // namespace lifebench
