// Reading RLE as Golly does (readpattern.cpp, readrle), but stricter where
// Golly silently drops or misreads cells: a cell beyond the header's x or y,
// an unknown character or a state of a multi-state rule is an error with its
// line and column. Golly's tolerance of a missing "!" is kept.
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"
#include "text.hpp"

#include <algorithm>
#include <climits>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

/// Where a character stands, 1-based.
struct Mark {
  std::int64_t line = 1;
  std::int64_t column = 1;
};

/// The text with a cursor that counts lines and columns; "\n", "\r\n" and "\r"
/// each end a line, as in Golly. It reads forward, holding a window of the text only.
class Reader {
public:
  Reader(std::istream& in, std::string source) : text_(in, source), source_(std::move(source)) {}

  [[nodiscard]] bool at_end() { return text_.at_end(); }
  [[nodiscard]] char peek() const { return text_.peek(); }
  [[nodiscard]] bool at_line_end() { return at_end() || peek() == '\n' || peek() == '\r'; }
  [[nodiscard]] bool at_blank() { return !at_end() && (peek() == ' ' || peek() == '\t'); }
  [[nodiscard]] bool at_digit() { return !at_end() && peek() >= '0' && peek() <= '9'; }
  [[nodiscard]] bool looking_at(std::string_view word) { return text_.looking_at(word); }
  [[nodiscard]] Mark mark() const { return here_; }
  /// Bytes read so far.
  [[nodiscard]] std::uint64_t offset() const { return text_.offset(); }

  void next() {
    const char c = peek();
    text_.skip();
    if (c == '\r' && !at_end() && peek() == '\n') text_.skip();
    if (c == '\n' || c == '\r') {
      ++here_.line;
      here_.column = 1;
    } else {
      ++here_.column;
    }
  }
  void skip_blanks() {
    while (at_blank())
      next();
  }
  void skip_line() {
    // A window at a time: a comment line may be megabytes long.
    here_.column += static_cast<std::int64_t>(text_.skip_to_line_end());
    if (!at_end()) next();
  }

  /// "found 'c'", or the end of the line or file, for "expected ..." messages.
  [[nodiscard]] std::string found() {
    if (at_end()) return "found the end of the file";
    if (at_line_end()) return "found the end of the line";
    return "found " + describe(peek());
  }
  static std::string describe(char c) {
    if (c > ' ' && c < 127) return std::string("'") + c + "'";
    return "byte 0x" + detail::hex(static_cast<unsigned char>(c), 2);
  }

  [[nodiscard]] ParseError error_at(Mark at, const std::string& what) const {
    const auto clamp = [](std::int64_t n) {
      return static_cast<int>(std::min<std::int64_t>(n, INT_MAX));
    };
    return {source_, clamp(at.line), clamp(at.column), what};
  }
  [[nodiscard]] ParseError error(const std::string& what) const { return error_at(here_, what); }

  void expect(char c) {
    skip_blanks();
    if (at_line_end() || peek() != c) {
      throw error(std::string("expected '") + c + "', " + found());
    }
    next();
  }

  /// Decimal digits at the cursor, no larger than `limit`.
  std::uint64_t number(std::uint64_t limit) {
    if (!at_digit()) throw error("expected a number, " + found());
    std::uint64_t value = 0;
    while (at_digit()) {
      const auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (value > (limit - digit) / 10) throw error("number too large");
      value = value * 10 + digit;
      next();
    }
    return value;
  }

private:
  detail::TextCursor text_;
  std::string source_;
  Mark here_;
};

constexpr auto max_size = static_cast<std::uint64_t>(max_cells);

/// "#CXRLE Pos=x,y Gen=n": the pattern's position and generation; other keys
/// are Golly's business and are skipped.
void read_xrle(Reader& r, Pattern& pattern) {
  for (int i = 0; i < 6; ++i)
    r.next();
  for (;;) {
    r.skip_blanks();
    if (r.at_line_end()) return;
    if (r.looking_at("Pos=")) {
      for (int i = 0; i < 4; ++i)
        r.next();
      // Any 64-bit position: lifebench writes a plane's far from the origin (a macrocell's
      // reach 2^61), and Golly reads positions of any size.
      const auto coordinate = [&r]() -> std::int64_t {
        const bool negative = !r.at_end() && r.peek() == '-';
        if (negative) r.next();
        constexpr auto most = static_cast<std::uint64_t>(INT64_MAX);
        const std::uint64_t magnitude = r.number(negative ? most + 1 : most);
        // -2^63 has no positive counterpart: negated as 0 - (magnitude - 1) - 1.
        return negative ? -static_cast<std::int64_t>(magnitude - 1) - 1
                        : static_cast<std::int64_t>(magnitude);
      };
      Position position;
      position.x = coordinate();
      r.expect(',');
      position.y = coordinate();
      pattern.position = position;
    } else if (r.looking_at("Gen=")) {
      for (int i = 0; i < 4; ++i)
        r.next();
      pattern.generation = r.number(UINT64_MAX);
    } else {
      while (!r.at_line_end() && !r.at_blank())
        r.next();
    }
  }
}

/// "x = W, y = H[, rule = R]" at the cursor, up to and including its line end.
void read_header(Reader& r, Pattern& pattern) {
  r.next(); // the 'x'
  r.expect('=');
  r.skip_blanks();
  const Mark width_at = r.mark();
  const auto width = static_cast<std::int64_t>(r.number(max_size));
  r.expect(',');
  r.expect('y');
  r.expect('=');
  r.skip_blanks();
  const Mark height_at = r.mark();
  const auto height = static_cast<std::int64_t>(r.number(max_size));
  r.skip_blanks();
  if (!r.at_line_end()) {
    r.expect(',');
    r.skip_blanks();
    if (!r.looking_at("rule")) throw r.error("expected \"rule\", " + r.found());
    for (int i = 0; i < 4; ++i)
      r.next();
    r.expect('=');
    r.skip_blanks();
    const Mark rule_at = r.mark();
    std::string rule;
    while (!r.at_line_end() && !r.at_blank()) {
      rule += r.peek();
      r.next();
    }
    if (rule.ends_with(',')) rule.pop_back(); // as Golly allows
    if (rule.empty()) throw r.error_at(rule_at, "expected a rule, " + r.found());
    try {
      pattern.rule = parse_rule_spec(rule);
    } catch (const Error& e) {
      throw r.error_at(rule_at, e.what());
    }
    r.skip_blanks();
    if (!r.at_line_end()) throw r.error("unexpected text after the rule: " + r.found());
  }
  if (!r.at_end()) r.next();

  if (width == 0 && height == 0) { // how Golly writes a pattern with no live cell
    pattern.size = Shape{0, 0, 1};
    return;
  }
  if (width == 0) throw r.error_at(width_at, "x must be positive");
  if (height == 0) throw r.error_at(height_at, "y must be positive");
  const Shape shape{width, height, 1};
  if (auto reason = invalid_shape_reason(shape)) {
    throw r.error_at(width_at, "pattern " + shape.to_string() + ": " + *reason);
  }
  pattern.size = shape;
}

/// The runs after the header, up to "!" or the end of the file: live(x, y, length) for each
/// run of live cells of the `size` pattern, row by row, left to right.
template <class Live> void read_body(Reader& r, Shape size, Live&& live) {
  const std::int64_t width = size.width;
  const std::int64_t height = size.height;
  // The header bounds the text too: each cell a character of its own, each row an end,
  // blanks and line ends between them come to less than four bytes a cell and row end (a
  // megabyte more for comment lines). Past that the text only repeats itself, and a small
  // gzipped file could make it take as long as its expanded size.
  const std::uint64_t longest = 4 * static_cast<std::uint64_t>(width + 1) *
                                    static_cast<std::uint64_t>(std::max<std::int64_t>(height, 1)) +
                                (std::uint64_t{1} << 20);
  const std::uint64_t start = r.offset();
  std::int64_t x = 0;
  std::int64_t y = 0;
  std::uint64_t count = 0; // 0: no count pending
  bool line_start = true;  // only blanks so far on this line
  while (!r.at_end()) {
    if (r.offset() - start > longest) {
      throw r.error("the body of a " + size.to_string() + " pattern takes at most " +
                    std::to_string(longest) +
                    " bytes (four a cell and row end, and 1 MiB for comments); this one is "
                    "longer");
    }
    const char c = r.peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      // Golly refuses this too: "2 3o" would otherwise read as "23o".
      if (count != 0) throw r.error("a run count must be followed by b, o, $ or !");
      line_start = line_start || c == '\n' || c == '\r';
      r.next();
      continue;
    }
    if (c == '#' && line_start) {
      r.skip_line();
      continue;
    }
    line_start = false;
    if (r.at_digit()) {
      if (count == 0 && c == '0') throw r.error("a run count cannot start with 0");
      count = count * 10 + static_cast<std::uint64_t>(c - '0');
      if (count > max_size) throw r.error("run count too large");
      r.next();
      continue;
    }
    const auto run = static_cast<std::int64_t>(count == 0 ? 1 : count);
    count = 0;
    switch (c) {
    case 'b':
    case '.':
    case 'o':
    case 'A':
      if (y >= height) {
        throw r.error("row " + std::to_string(y + 1) + " is beyond y = " + std::to_string(height));
      }
      if (run > width - x) {
        throw r.error("row " + std::to_string(y + 1) +
                      " has more than x = " + std::to_string(width) + " cells");
      }
      if (c == 'o' || c == 'A') live(x, y, run);
      x += run;
      break;
    case '$':
      if (run > height - y) {
        throw r.error("more than y = " + std::to_string(height) + " rows");
      }
      y += run;
      x = 0;
      break;
    case '!':
      return;
    default:
      if ((c >= 'B' && c <= 'X') || (c >= 'p' && c <= 'y')) {
        throw r.error("state " + Reader::describe(c) +
                      " of a multi-state rule: only b or . (dead) and o or A (alive) are read");
      }
      throw r.error("unexpected character " + Reader::describe(c));
    }
    r.next();
  }
  if (count != 0) throw r.error("the file ends after a run count");
}

/// The comment lines and the header: all of the pattern but its cells.
void read_up_to_body(Reader& r, Pattern& pattern) {
  for (;;) {
    r.skip_blanks();
    if (r.at_end()) throw r.error("no header line \"x = <width>, y = <height>\"");
    if (r.at_line_end()) {
      r.next();
    } else if (r.peek() == '#') {
      if (r.looking_at("#CXRLE")) read_xrle(r, pattern);
      r.skip_line();
    } else if (r.peek() == 'x') {
      break;
    } else {
      throw r.error("expected a # line or the header \"x = <width>, y = <height>[, rule = "
                    "<rule>]\", " +
                    r.found());
    }
  }
  const Mark header_at = r.mark();
  read_header(r, pattern);
  // The cells' coordinates, not only the corner's, must be 64-bit numbers.
  const std::optional<Position>& at = pattern.position;
  if (at && (at->x > INT64_MAX - pattern.size.width || at->y > INT64_MAX - pattern.size.height)) {
    throw r.error_at(
        header_at, "the " + pattern.size.to_string() + " pattern at Pos=" + std::to_string(at->x) +
                       "," + std::to_string(at->y) + " reaches coordinate 2^63 - 1 or past it");
  }
}

} // namespace

Pattern read_rle(std::istream& in, const std::string& source) {
  Reader r(in, source);
  Pattern pattern;
  read_up_to_body(r, pattern);
  std::vector<LiveRun>& alive = pattern.alive;
  read_body(r, pattern.size, [&](std::int64_t x, std::int64_t y, std::int64_t length) {
    if (!alive.empty() && alive.back().y == y && alive.back().x + alive.back().length == x) {
      alive.back().length += length; // adjoining runs ("2o3o") merged
    } else {
      alive.push_back(LiveRun{x, y, length});
    }
  });
  return pattern;
}

Grid read_rle_into_grid(std::istream& in, const std::string& source,
                        const std::function<Shape(const Pattern&)>& grid_for) {
  return read_rle_placed(in, source, [&](const Pattern& pattern) {
    const Shape shape = grid_for(pattern);
    return Placement{shape, corner_in_grid(pattern, shape)};
  });
}

Grid read_rle_placed(std::istream& in, const std::string& source,
                     const std::function<Placement(const Pattern&)>& place) {
  Reader r(in, source);
  Pattern pattern;
  read_up_to_body(r, pattern);
  const Placement placement = place(pattern);
  const Shape& shape = placement.grid;
  const Cell corner = placement.corner;
  LIFEBENCH_EXPECTS(shape.depth == 1 && corner.x >= 0 && corner.y >= 0 &&
                        corner.x <= shape.width - pattern.size.width &&
                        corner.y <= shape.height - pattern.size.height,
                    "the " + pattern.size.to_string() + " pattern placed outside the " +
                        shape.to_string() + " grid");
  Grid grid(shape);
  read_body(r, pattern.size, [&](std::int64_t x, std::int64_t y, std::int64_t length) {
    std::uint8_t* row = grid.data() + grid.index(corner.x + x, corner.y + y);
    std::fill(row, row + length, std::uint8_t{1});
  });
  return grid;
}

} // namespace lifebench
