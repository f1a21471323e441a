// Reading Life 1.05 and 1.06 as Golly does (readpattern.cpp, readpclife), which reads both
// with one loop: "#P x y" starts a block of rows of '.' and '*' at (x, y), a line "x y" is
// one live cell, "#N" is Conway's rule and "#R" names a rule (in Golly's forms, 1.05's
// S/B "23/3" among them). Other '#' lines are comments, and blank lines are skipped without
// starting a row, as in Golly.
#include "lifebench/error.hpp"
#include "lifebench/plane_pattern.hpp"
#include "lifebench/rle.hpp"
#include "text.hpp"

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

namespace lifebench {
namespace {

/// The reader's state: where the next row goes, and what has been read.
class LifeReader {
public:
  LifeReader(std::string source) : source_(std::move(source)) {}

  PlanePattern read(std::istream& in) {
    detail::TextCursor text(in, source_);
    std::string line;
    std::size_t n = 0;
    bool more = text.read_line(line);
    for (; more && line.find_first_not_of(" \t") == std::string::npos; ++n)
      more = text.read_line(line);
    if (!more || !(line.starts_with("#Life 1.05") || line.starts_with("#Life 1.06"))) {
      throw detail::parse_error(source_, n, 0,
                                R"(expected the header "#Life 1.05" or "#Life 1.06")");
    }
    while (text.read_line(line))
      read_line(line, ++n);
    return finish();
  }

private:
  static constexpr std::int64_t max_coordinate = max_cells;

  [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what) const {
    throw detail::parse_error(source_, line, column, what);
  }

  [[nodiscard]] std::int64_t coordinate(const detail::Word& word, std::size_t line) const {
    const auto value = detail::parse_integer(word.text, max_coordinate);
    if (!value)
      fail(line, word.column,
           "expected a coordinate of at most 2^40, found \"" + std::string(word.text) + "\"");
    return *value;
  }

  void read_line(std::string_view line, std::size_t n) {
    line = line.substr(0, line.find_last_not_of(" \t") + 1);
    if (line.empty()) return;
    if (line.front() == '#') {
      read_hash_line(line, n);
    } else if (line.front() == '.' || line.front() == '*') {
      read_row(line, n);
    } else if (line.front() == '-' || (line.front() >= '0' && line.front() <= '9')) {
      detail::split_words(line, words_);
      if (words_.size() != 2) fail(n, 0, "expected a cell \"x y\"");
      add(coordinate(words_[0], n), coordinate(words_[1], n), 1);
    } else {
      fail(n, 0,
           "expected a row of '.' and '*', a cell \"x y\" or a '#' line, found '" +
               std::string(1, line.front()) + "'");
    }
  }

  void read_hash_line(std::string_view line, std::size_t n) {
    const auto words = detail::split_words(line);
    const std::string_view key = words.front().text;
    if (key == "#P") {
      // "#P" alone starts a block where the last one ended, as Golly reads it
      // (Life/Methuselahs/acorn.lif).
      if (words.size() != 3 && words.size() != 1) fail(n, 0, R"(expected "#P x y" or "#P")");
      if (words.size() == 3) {
        left_ = coordinate(words[1], n);
        x_ = left_;
        y_ = coordinate(words[2], n);
      }
    } else if (key == "#N") {
      rule_ = parse_rule_spec("B3/S23");
    } else if (key == "#R") {
      if (words.size() != 2) fail(n, 0, "expected \"#R <rule>\"");
      try {
        rule_ = parse_rule_spec(words[1].text);
      } catch (const Error& e) {
        fail(n, words[1].column, e.what());
      }
    } // any other '#' line is a comment ("#D", "#C", "#O")
  }

  void read_row(std::string_view line, std::size_t n) {
    for (std::size_t i = 0; i < line.size();) {
      const char c = line[i];
      if (c != '.' && c != '*') {
        fail(n, i,
             "expected '.' (dead) or '*' (alive) in a row, found " +
                 quote(std::string_view(&c, 1), '\''));
      }
      const std::size_t end = std::min(line.find_first_not_of(c, i), line.size());
      if (c == '*') add(x_ + static_cast<std::int64_t>(i), y_, static_cast<std::int64_t>(end - i));
      i = end;
    }
    if (++y_ > max_coordinate) fail(n, 0, "a row beyond y = 2^40");
    x_ = left_;
  }

  void add(std::int64_t x, std::int64_t y, std::int64_t length) {
    runs_->push_back(LiveRun{x, y, length});
    if (runs_->size() >= compact_at_) compact();
    if (runs_->size() == 1) {
      box_ = Box{x, y, length, 1};
      return;
    }
    const std::int64_t left = std::min(box_.left, x);
    const std::int64_t top = std::min(box_.top, y);
    const std::int64_t right = std::max(box_.left + box_.width, x + length);
    const std::int64_t bottom = std::max(box_.top + box_.height, y + 1);
    box_ = Box{left, top, right - left, bottom - top};
  }

  /// Drops runs listed more than once (a cell a file lists a million times is one run), so
  /// that the runs kept grow with the cells, not with the text, and refuses more than memory
  /// holds.
  void compact() {
    std::vector<LiveRun>& runs = *runs_;
    const auto order = [](const LiveRun& a, const LiveRun& b) {
      return std::tie(a.y, a.x, a.length) < std::tie(b.y, b.x, b.length);
    };
    std::sort(runs.begin(), runs.end(), order);
    runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
    detail::require_room(runs.size(), sizeof(LiveRun), source_, "different runs of live cells");
    compact_at_ = std::max(kFirstCompaction, 2 * runs.size());
  }

  PlanePattern finish() {
    PlanePattern pattern;
    pattern.rule = rule_;
    pattern.box = box_;
    pattern.runs = [runs = runs_](const RunSink& live) {
      for (const LiveRun& run : *runs)
        live(run.x, run.y, run.length);
    };
    return pattern;
  }

  std::string source_;
  std::optional<RuleSpec> rule_;
  std::int64_t left_ = 0; ///< where each row of the block starts
  std::int64_t x_ = 0;
  std::int64_t y_ = 0;
  std::shared_ptr<std::vector<LiveRun>> runs_ = std::make_shared<std::vector<LiveRun>>();
  /// Runs kept before the first compact(): 96 KiB. Each compact() at least doubles the next
  /// one's size, so that the sorting takes O(n log n) over n runs listed, however they repeat.
  static constexpr std::size_t kFirstCompaction = std::size_t{1} << 12;
  std::size_t compact_at_ = kFirstCompaction; ///< the size of runs_ that calls compact()
  Box box_;
  std::vector<detail::Word> words_; ///< a cell line's words, its memory kept line after line
};

} // namespace

PlanePattern read_life(std::istream& in, const std::string& source) {
  return LifeReader(source).read(in);
}

} // namespace lifebench
