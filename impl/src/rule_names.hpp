// Rules by name, as Golly and the Life community name them ("HighLife", "Day and Night"),
// and the names of Golly's rules that lifebench does not run.
#pragma once

#include <optional>
#include <string_view>

namespace lifebench::detail {

/// What a rule name stands for.
struct NamedRule {
  enum class Kind {
    totalistic,  ///< a two-state B/S rule, which `rule` gives
    multi_state, ///< more than two states (Golly's rule tables and trees, JvN, ...)
    rule_table,  ///< two states, but a rule table that no B/S rule equals
  };
  std::string_view name; ///< as Golly writes it
  Kind kind = Kind::totalistic;
  std::string_view rule; ///< the B/S form of a totalistic rule
};

/// The rule `name` names, matched ignoring case and every character but letters and digits
/// ("DayAndNight", "Day and Night" and "day-and-night" alike), or nothing for an unknown name.
std::optional<NamedRule> find_named_rule(std::string_view name);

} // namespace lifebench::detail
