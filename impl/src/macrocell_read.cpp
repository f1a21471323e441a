// Reading two-state macrocell files as Golly's HashLife writes and reads them
// (hlifealgo::writeNativeFormat, readmacrocell). After the "[M2]" line, "#R" names the rule,
// "#G" the generation, other '#' lines are comments; every other line defines the next node,
// numbered from 1: a leaf of 8x8 cells (rows of '.' and '*' from the top, each ended by '$')
// or "L nw ne sw se", a node of level L >= 4 (2^L cells a side) made of four nodes of level
// L - 1 named by number, 0 for an empty one. The last node of level 4 or more is the whole
// pattern. HashLife keeps y upward: the root of level L has its top-left cell at
// (-2^(L-1), 1 - 2^(L-1)) in Golly's coordinates, where y grows downward.
#include "lifebench/error.hpp"
#include "lifebench/plane_pattern.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <vector>

namespace lifebench {
namespace {

constexpr int leaf_level = 3; ///< 8x8 cells
/// The deepest root whose corner and every cell lie within 64-bit coordinates.
constexpr int max_level = 62;

/// A node: a leaf's cells (bit 8 * row + column, row 0 on top), or four children.
struct Node {
  int level = leaf_level;
  std::uint64_t cells = 0;
  std::array<std::size_t, 4> children{}; ///< nw, ne, sw, se; 0 for an empty node
  Box box;                               ///< its live cells, from its top-left cell
};

/// The box holding two boxes (either may hold no cell).
Box joined(const Box& a, const Box& b) {
  if (a.width == 0) return b;
  if (b.width == 0) return a;
  const std::int64_t left = std::min(a.left, b.left);
  const std::int64_t top = std::min(a.top, b.top);
  const std::int64_t right = std::max(a.left + a.width, b.left + b.width);
  const std::int64_t bottom = std::max(a.top + a.height, b.top + b.height);
  return {left, top, right - left, bottom - top};
}

Box leaf_box(std::uint64_t cells) {
  Box box;
  for (std::int64_t row = 0; row < 8; ++row) {
    const auto bits = static_cast<std::uint8_t>(cells >> (8 * row));
    if (bits == 0) continue;
    const auto first = static_cast<std::int64_t>(std::countr_zero(bits));
    const auto last = 7 - static_cast<std::int64_t>(std::countl_zero(bits));
    box = joined(box, Box{first, row, last - first + 1, 1});
  }
  return box;
}

class MacrocellReader {
public:
  explicit MacrocellReader(std::string source) : source_(std::move(source)) {}

  PlanePattern read(std::istream& in) {
    detail::TextCursor text(in, source_);
    std::string line;
    std::size_t n = 0;
    bool more = text.read_line(line);
    for (; more && line.find_first_not_of(" \t") == std::string::npos; ++n)
      more = text.read_line(line);
    if (!more || !line.starts_with("[M2]")) {
      throw detail::parse_error(source_, n, 0,
                                "expected the header \"[M2]\" of a two-state macrocell file");
    }
    while (text.read_line(line))
      read_line(line, ++n);
    return finish();
  }

private:
  [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what) const {
    throw detail::parse_error(source_, line, column, what);
  }

  void read_line(std::string_view line, std::size_t n) {
    line = line.substr(0, line.find_last_not_of(" \t") + 1);
    if (line.empty()) return;
    switch (line.front()) {
    case '#':
      read_hash_line(line, n);
      return;
    case '.':
    case '*':
    case '$':
      read_leaf(line, n);
      return;
    default:
      read_node(line, n);
    }
  }

  void read_hash_line(std::string_view line, std::size_t n) {
    const auto words = detail::split_words(line);
    if (words.front().text == "#R") {
      if (words.size() != 2) fail(n, 0, "expected \"#R <rule>\"");
      try {
        rule_ = parse_rule_spec(words[1].text);
      } catch (const Error& e) {
        fail(n, words[1].column, e.what());
      }
    } else if (words.front().text == "#G") {
      const auto generation =
          words.size() == 2 ? detail::parse_decimal(words[1].text) : std::optional<std::uint64_t>{};
      if (!generation) fail(n, 0, "expected \"#G <generation>\", below 2^64");
      generation_ = *generation;
    } // any other '#' line is a comment ("#C", "#D") or a timeline's frame, not the pattern
  }

  void read_leaf(std::string_view line, std::size_t n) {
    std::uint64_t cells = 0;
    int column = 0;
    int row = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '$') {
        column = 0;
        ++row;
        continue;
      }
      if (c != '.' && c != '*') {
        fail(n, i,
             "expected '.', '*' or '$' in a leaf, found " + quote(std::string_view(&c, 1), '\''));
      }
      if (column > 7 || row > 7) fail(n, i, "a leaf holds 8x8 cells");
      if (c == '*') cells |= std::uint64_t{1} << (8 * row + column);
      ++column;
    }
    add(Node{leaf_level, cells, {}, leaf_box(cells)});
  }

  void read_node(std::string_view line, std::size_t n) {
    const auto words = detail::split_words(line);
    if (words.size() != 5) fail(n, 0, "expected a leaf or a node \"level nw ne sw se\"");
    const auto level = detail::parse_decimal(words[0].text);
    if (!level) fail(n, 0, "expected a leaf or a node \"level nw ne sw se\"");
    if (*level < 4) {
      fail(n, 0,
           "a node of level " + std::to_string(*level) +
               " holds cell states: multi-state rules are not supported (two-state files "
               "have leaves of 8x8 cells and nodes from level 4)");
    }
    if (*level > max_level) {
      fail(n, 0,
           "a node of level " + std::to_string(*level) + " (2^" + std::to_string(*level) +
               " cells a side): lifebench places no pattern wider than 2^62 cells");
    }
    Node node;
    node.level = static_cast<int>(*level);
    const std::int64_t half = std::int64_t{1} << (node.level - 1);
    const std::array<Box, 4> corners{Box{0, 0}, Box{half, 0}, Box{0, half}, Box{half, half}};
    for (std::size_t k = 0; k < 4; ++k) {
      const detail::Word& word = words[k + 1];
      const auto child = detail::parse_decimal(word.text);
      if (!child || *child > nodes_.size()) {
        fail(n, word.column,
             "node \"" + std::string(word.text) + "\" is not defined above (" +
                 std::to_string(nodes_.size()) + " are)");
      }
      node.children[k] = *child;
      if (*child == 0) continue;
      const Node& below = nodes_[*child - 1];
      if (below.level != node.level - 1) {
        fail(n, word.column,
             "node " + std::to_string(*child) + " is of level " + std::to_string(below.level) +
                 ", not " + std::to_string(node.level - 1) + " as a quarter of this one");
      }
      if (below.box.width > 0) {
        const Box& at = corners[k];
        node.box = joined(node.box, Box{at.left + below.box.left, at.top + below.box.top,
                                        below.box.width, below.box.height});
      }
    }
    add(node);
    root_ = nodes_.size();
  }

  /// Keeps a node; refuses more than memory holds (asked as the count doubles).
  void add(const Node& node) {
    if (std::has_single_bit(nodes_.size() + 1)) {
      detail::require_room(nodes_.size() + 1, sizeof(Node), source_, "nodes");
    }
    nodes_.push_back(node);
  }

  /// Gives the runs of node `index` with its top-left cell at (left, top).
  static void paint(const std::vector<Node>& nodes, std::size_t index, std::int64_t left,
                    std::int64_t top, const RunSink& live) {
    if (index == 0) return;
    const Node& node = nodes[index - 1];
    if (node.box.width == 0) return;
    if (node.level == leaf_level) {
      for (std::int64_t row = 0; row < 8; ++row) {
        auto bits = static_cast<unsigned>((node.cells >> (8 * row)) & 0xffU);
        while (bits != 0) {
          const int first = std::countr_zero(bits);
          const int length = std::countr_one(bits >> first);
          live(left + first, top + row, length);
          bits &= ~(((1U << length) - 1U) << first);
        }
      }
      return;
    }
    const std::int64_t half = std::int64_t{1} << (node.level - 1);
    paint(nodes, node.children[0], left, top, live);
    paint(nodes, node.children[1], left + half, top, live);
    paint(nodes, node.children[2], left, top + half, live);
    paint(nodes, node.children[3], left + half, top + half, live);
  }

  PlanePattern finish() {
    PlanePattern pattern;
    pattern.rule = rule_;
    pattern.generation = generation_;
    if (root_ == 0) { // no node of level 4 or more: Golly reads an empty pattern
      pattern.runs = [](const RunSink&) {};
      return pattern;
    }
    const Node& root = nodes_[root_ - 1];
    const std::int64_t half = std::int64_t{1} << (root.level - 1);
    const std::int64_t left = -half;
    const std::int64_t top = 1 - half;
    if (root.box.width > 0) {
      pattern.box = Box{left + root.box.left, top + root.box.top, root.box.width, root.box.height};
    }
    pattern.runs = [nodes = std::make_shared<std::vector<Node>>(std::move(nodes_)), root = root_,
                    left, top](const RunSink& live) { paint(*nodes, root, left, top, live); };
    return pattern;
  }

  std::string source_;
  std::optional<RuleSpec> rule_;
  std::uint64_t generation_ = 0;
  std::vector<Node> nodes_;
  std::size_t root_ = 0; ///< the last node of level 4 or more, numbered from 1
};

} // namespace

PlanePattern read_macrocell(std::istream& in, const std::string& source) {
  return MacrocellReader(source).read(in);
}

} // namespace lifebench
