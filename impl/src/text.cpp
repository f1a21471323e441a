#include "text.hpp"

#include <charconv>

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

std::string quote(std::string_view text) {
  // Appending, as `"literal" + std::string` trips GCC 12's false -Wrestrict.
  std::string quoted = "\"";
  quoted += text;
  quoted += '"';
  return quoted;
}

std::string hex(std::uint64_t value, int digits) {
  std::string text(static_cast<std::size_t>(digits), '0');
  for (auto digit = text.rbegin(); digit != text.rend(); ++digit, value >>= 4U) {
    *digit = "0123456789abcdef"[value & 15U];
  }
  return text;
}

} // namespace lifebench::detail
