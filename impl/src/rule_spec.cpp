// Parsing of Golly rule strings with their bounded-grid suffix.
#include "lifebench/error.hpp"
#include "lifebench/problem.hpp"
#include "rule_names.hpp"
#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace lifebench {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

/// Parses one rule string; every failure names the whole string.
class RuleParser {
public:
  explicit RuleParser(std::string_view text) : text_(text) {}

  [[nodiscard]] RuleSpec parse() const {
    const auto colon = text_.find(':');
    RuleSpec spec;
    spec.rule = parse_rule(text_.substr(0, colon));
    if (colon != std::string_view::npos) parse_bound(text_.substr(colon + 1), spec);
    return spec;
  }

private:
  [[nodiscard]] Error fail(const std::string& why) const {
    return Error("rule " + quote(text_) + ": " + why);
  }

  [[nodiscard]] Rule parse_rule(std::string_view text) const {
    if (text.find('/') == std::string_view::npos) return parse_without_slash(text);
    auto parts = detail::split(text, '/');
    Rule rule;
    if (parts.size() == 3 && parts[2].size() == 2 && parts[2][0] == '3' &&
        lower(parts[2][1]) == 'd') {
      rule.topology = Topology::cube;
      parts.pop_back();
    } else if (parts.size() == 3) {
      refuse_generations(parts[2]);
      parts.pop_back();
    }
    if (parts.size() != 2) throw fail("expected B<counts>/S<counts>, e.g. B3/S23, B2/S34H");
    std::string_view& last = parts[1];
    if (rule.topology != Topology::cube && !last.empty()) {
      if (lower(last.back()) == 'h') {
        rule.topology = Topology::hex;
        last.remove_suffix(1);
      } else if (lower(last.back()) == 'v') {
        throw fail("von Neumann rules (V) are not supported");
      }
    }

    const auto letter = [](std::string_view part) {
      const char c = part.empty() ? '\0' : lower(part.front());
      return c == 'b' || c == 's' ? c : '\0';
    };
    const char first = letter(parts[0]);
    const char second = letter(parts[1]);
    std::string_view birth;
    std::string_view survive;
    if (first != '\0' && second != '\0' && first != second) {
      birth = (first == 'b' ? parts[0] : parts[1]).substr(1);
      survive = (first == 'b' ? parts[1] : parts[0]).substr(1);
    } else if (first == '\0' && second == '\0') {
      // Golly's S/B form, "23/3": survival first.
      survive = parts[0];
      birth = parts[1];
    } else {
      throw fail("expected one B part and one S part, e.g. B3/S23");
    }
    rule.birth = parse_counts(birth, "birth", rule);
    rule.survive = parse_counts(survive, "survival", rule);
    return rule;
  }

  /// A name ("HighLife", "Life"), or Golly's forms without a slash: "B3S23", and "B234" with
  /// no survival part.
  [[nodiscard]] Rule parse_without_slash(std::string_view text) const {
    if (const auto named = detail::find_named_rule(text)) {
      using Kind = detail::NamedRule::Kind;
      switch (named->kind) {
      case Kind::totalistic:
        return parse_rule(named->rule);
      case Kind::multi_state:
        throw fail("multi-state rules are not supported (Golly's " + std::string(text) +
                   " has more than two states)");
      case Kind::rule_table:
        throw fail("Golly's rule table " + std::string(text) +
                   " is not a B/S rule; only B/S rules and their names are supported");
      }
    }
    const char first = text.empty() ? '\0' : lower(text.front());
    // Golly writes non-totalistic rules with an underscore too ("B3_S23-a4ei6").
    if (first == 'b' && text.find('_') != std::string_view::npos) {
      std::string slashed(text);
      std::replace(slashed.begin(), slashed.end(), '_', '/');
      return parse_rule(slashed);
    }
    if ((first == 'b' || first == 's') &&
        text.find_first_not_of("BbSsHh0123456789,") == std::string_view::npos) {
      const char other = first == 'b' ? 's' : 'b';
      const auto at = text.find_first_of(other == 's' ? "Ss" : "Bb");
      std::string slashed(text.substr(0, at));
      slashed += '/';
      slashed += at == std::string_view::npos ? std::string(1, other) : text.substr(at);
      return parse_rule(slashed);
    }
    if (text.empty()) throw fail("expected B<counts>/S<counts>, e.g. B3/S23, B2/S34H");
    if (first == 'w' && detail::parse_decimal(text.substr(1))) {
      throw fail("Wolfram's one-dimensional rules are not supported");
    }
    if (first == 'r' && text.find(",C") != std::string_view::npos) {
      throw fail("Larger than Life rules are not supported");
    }
    throw fail("unknown rule name; lifebench runs B/S rules (B3/S23, B2/S34H) and their names "
               "in Golly and the LifeWiki (Life, HighLife, DayAndNight, Seeds, 34Life, ...)");
  }

  /// The third part of a two-dimensional rule: Golly's Generations rules ("B2/S/C3",
  /// "345/2/4") give the number of states there. Two states are an ordinary rule.
  void refuse_generations(std::string_view states) const {
    if (!states.empty() && lower(states.front()) == 'c') states.remove_prefix(1);
    const auto count = detail::parse_decimal(states);
    if (!count || *count < 2) throw fail("expected B<counts>/S<counts>, e.g. B3/S23, B2/S34H");
    if (*count > 2) {
      throw fail("multi-state rules are not supported (a Generations rule of " +
                 std::to_string(*count) + " states)");
    }
  }

  /// A set of counts: one digit each, or comma-separated numbers once it holds a comma; a
  /// lone count above 9 takes a trailing comma ("13,"), as "13" is 1 and 3.
  [[nodiscard]] std::uint32_t parse_counts(std::string_view counts, const std::string& what,
                                           const Rule& rule) const {
    std::uint32_t bits = 0;
    const auto add = [&](std::uint64_t n) {
      if (n > static_cast<std::uint64_t>(rule.neighbours())) {
        throw fail(what + " count " + std::to_string(n) + " exceeds the " +
                   std::to_string(rule.neighbours()) + " neighbours of a " +
                   to_string(rule.topology) + " rule");
      }
      bits |= 1U << n;
    };
    if (counts.find(',') != std::string_view::npos) {
      auto items = detail::split(counts, ',');
      if (items.size() == 2 && items[1].empty() && detail::parse_decimal(items[0]) >= 10U) {
        items.pop_back();
      }
      for (const auto item : items) {
        const auto n = detail::parse_decimal(item);
        if (!n) throw fail(quote(item) + " in the " + what + " counts is not a number");
        add(*n);
      }
      return bits;
    }
    for (const char c : counts) {
      if (c < '0' || c > '9') {
        throw fail(quote(std::string_view(&c, 1), '\'') + " in the " + what +
                   " counts is not a neighbour count (only totalistic rules are supported)");
      }
      add(static_cast<std::uint64_t>(c - '0'));
    }
    return bits;
  }

  void parse_bound(std::string_view bound, RuleSpec& spec) const {
    if (bound.empty()) throw fail("':' must be followed by T<w>,<h> (torus) or P<w>,<h> (plane)");
    switch (lower(bound.front())) {
    case 't':
      spec.boundary = Boundary::torus;
      break;
    case 'p':
      spec.boundary = Boundary::dead;
      break;
    case 'k':
      throw fail("Klein bottles (:K) are not supported: use :T (torus) or :P (plane)");
    case 'c':
      throw fail("cross-surfaces (:C) are not supported: use :T (torus) or :P (plane)");
    case 's':
      throw fail("spheres (:S) are not supported: use :T (torus) or :P (plane)");
    default:
      throw fail("unknown bounded grid '" + std::string(1, bound.front()) +
                 "': use :T (torus) or :P (plane)");
    }
    bound.remove_prefix(1);
    if (bound.find_first_of("+-*") != std::string_view::npos) {
      throw fail("shifted or twisted bounded grids are not supported");
    }
    if (bound.empty()) throw fail("the bounded grid has no sizes");
    const bool cube = spec.rule.topology == Topology::cube;
    const auto parts = detail::split(bound, ',');
    if (parts.size() != 1 && parts.size() != (cube ? 3U : 2U)) {
      throw fail(cube ? "a 3D bounded grid takes three sizes"
                      : "a 2D bounded grid takes two sizes");
    }
    std::vector<std::int64_t> sizes;
    for (const auto part : parts) {
      const auto size = detail::parse_decimal(part);
      if (!size) throw fail(quote(part) + " is not a size");
      if (*size > static_cast<std::uint64_t>(max_cells)) throw fail("more than 2^40 cells");
      sizes.push_back(static_cast<std::int64_t>(*size));
    }
    // Zero is Golly's unbounded size: ":T0" or ":P0,0" is the unbounded plane.
    if (!cube && std::ranges::all_of(sizes, [](std::int64_t size) { return size == 0; })) return;
    if (std::ranges::find(sizes, 0) != sizes.end()) {
      throw fail("a zero size (unbounded in that direction) is not supported");
    }
    // One size stands for all of them, as Golly reads ":T100" as ":T100,100".
    sizes.resize(cube ? 3 : 2, sizes.front());
    const Shape shape{sizes[0], sizes[1], cube ? sizes[2] : 1};
    if (auto reason = invalid_shape_reason(shape)) throw fail(*reason);
    spec.shape = shape;
  }

  std::string_view text_;
};

} // namespace

RuleSpec parse_rule_spec(std::string_view text) {
  return RuleParser(text).parse();
}

} // namespace lifebench
