#include "text.hpp"

#include "lifebench/grid.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <system_error>

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

void split_words(std::string_view line, std::vector<Word>& words) {
  words.clear();
  std::size_t at = 0;
  for (;;) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) return;
    const auto end = std::min(line.find_first_of(" \t", at), line.size());
    words.push_back({line.substr(at, end - at), at});
    at = end;
  }
}

std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  split_words(line, words);
  return words;
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

bool TextCursor::fill(std::size_t want) {
  if (end_ - pos_ >= want) return true;
  // What is left moves to the front: the window never grows past `want` and its size.
  std::copy(window_.begin() + static_cast<std::ptrdiff_t>(pos_),
            window_.begin() + static_cast<std::ptrdiff_t>(end_), window_.begin());
  dropped_ += pos_;
  end_ -= pos_;
  pos_ = 0;
  if (window_.size() < want) window_.resize(want);
  while (end_ < want && in_) {
    in_.read(window_.data() + end_, static_cast<std::streamsize>(window_.size() - end_));
    end_ += static_cast<std::size_t>(in_.gcount());
  }
  if (in_.bad()) throw Error(source_ + ": read error");
  return end_ >= want;
}

bool TextCursor::looking_at(std::string_view word) {
  return fill(word.size()) && std::string_view(window_.data() + pos_, word.size()) == word;
}

std::uint64_t TextCursor::to_line_end(std::string* line) {
  std::uint64_t moved = 0;
  while (pos_ < end_ || fill(1)) {
    const char* begin = window_.data() + pos_;
    const char* end = window_.data() + end_;
    // memchr, not a loop of comparisons: lines of comments may be megabytes long.
    const char* stop = end;
    if (const void* n = std::memchr(begin, '\n', static_cast<std::size_t>(end - begin))) {
      stop = static_cast<const char*>(n);
    }
    if (const void* r = std::memchr(begin, '\r', static_cast<std::size_t>(stop - begin))) {
      stop = static_cast<const char*>(r);
    }
    if (line != nullptr) line->append(begin, stop);
    moved += static_cast<std::uint64_t>(stop - begin);
    pos_ += static_cast<std::size_t>(stop - begin);
    if (stop != end) break;
  }
  return moved;
}

bool TextCursor::read_line(std::string& line) {
  line.clear();
  if (at_end()) return false;
  to_line_end(&line);
  if (at_end()) return true;
  const char c = peek();
  skip();
  if (c == '\r' && !at_end() && peek() == '\n') skip();
  return true;
}

void require_room(std::uint64_t count, std::size_t item_bytes, const std::string& source,
                  const std::string& what) {
  const std::uint64_t memory = host_memory_bytes();
  if (memory != 0 && count > memory / 4 / item_bytes) {
    throw Error(source + ": more than " + std::to_string(memory / 4 / item_bytes) + " " + what +
                ", more than a quarter of this machine's " + std::to_string(memory >> 20) +
                " MiB to hold them");
  }
}

std::string hex(std::uint64_t value, int digits) {
  std::string text(static_cast<std::size_t>(digits), '0');
  for (auto digit = text.rbegin(); digit != text.rend(); ++digit, value >>= 4U) {
    *digit = "0123456789abcdef"[value & 15U];
  }
  return text;
}

std::string os_reason(int error) {
  return std::generic_category().message(error);
}

} // namespace lifebench::detail

namespace lifebench {

namespace {

/// `at`, moved back to the start of the UTF-8 character it falls in.
std::size_t character_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0U) == 0x80U)
    --at;
  return at;
}

/// `text` with each control character as \xNN: a NUL would end the message where it is
/// printed as a C string, an escape sequence would command the terminal.
std::string without_control_characters(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20U || byte == 0x7FU) {
      shown += "\\x" + detail::hex(byte, 2);
    } else {
      shown += c;
    }
  }
  return shown;
}

} // namespace

std::string quote(std::string_view text, char mark) {
  const std::string shown = without_control_characters(text);
  constexpr std::size_t kLongest = 80;
  constexpr std::size_t kHead = 40; // and the rest of kLongest from the end
  // Appending, as `"literal" + std::string` trips GCC 12's false -Wrestrict.
  std::string quoted(1, mark);
  if (shown.size() <= kLongest) {
    quoted += shown;
  } else {
    // Its start and its end: a path's end is the file's name, which says the most.
    quoted += shown.substr(0, character_start(shown, kHead));
    quoted += "…";
    quoted += shown.substr(character_start(shown, shown.size() - (kLongest - kHead)));
  }
  quoted += mark;
  return quoted;
}

} // namespace lifebench
