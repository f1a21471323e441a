// The rule names: Golly's own (its Rules menu, its QuickLife help, Rules/Life.rule), the
// names the LifeWiki's list of Life-like rules gives the same rules, and Golly 3.3's rules
// of more than two states (its Rules folder and its JvN algorithm) so that a file naming
// one is refused for what it is rather than as an unknown name.
#include "rule_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace lifebench::detail {
namespace {

using Kind = NamedRule::Kind;

constexpr std::array totalistic{
    NamedRule{"Life", Kind::totalistic, "B3/S23"},
    NamedRule{"Conway's Life", Kind::totalistic, "B3/S23"},
    NamedRule{"HighLife", Kind::totalistic, "B36/S23"},
    NamedRule{"3-4 Life", Kind::totalistic, "B34/S34"},
    NamedRule{"AntiLife", Kind::totalistic, "B0123478/S01234678"},
    NamedRule{"Life without Death", Kind::totalistic, "B3/S012345678"},
    NamedRule{"Plow World", Kind::totalistic, "B378/S012345678"},
    NamedRule{"Day and Night", Kind::totalistic, "B3678/S34678"},
    NamedRule{"Day & Night", Kind::totalistic, "B3678/S34678"},
    NamedRule{"Diamoeba", Kind::totalistic, "B35678/S5678"},
    NamedRule{"LongLife", Kind::totalistic, "B345/S5"},
    NamedRule{"Seeds", Kind::totalistic, "B2/S"},
    NamedRule{"Persian Rug", Kind::totalistic, "B234/S"},
    NamedRule{"Serviettes", Kind::totalistic, "B234/S"},
    NamedRule{"Replicator", Kind::totalistic, "B1357/S1357"},
    NamedRule{"Fredkin", Kind::totalistic, "B1357/S02468"},
    NamedRule{"Morley", Kind::totalistic, "B368/S245"},
    NamedRule{"Move", Kind::totalistic, "B368/S245"},
    NamedRule{"2x2", Kind::totalistic, "B36/S125"},
    NamedRule{"Maze", Kind::totalistic, "B3/S12345"},
    NamedRule{"Mazectric", Kind::totalistic, "B3/S1234"},
    NamedRule{"Coral", Kind::totalistic, "B3/S45678"},
    NamedRule{"Flock", Kind::totalistic, "B3/S12"},
    NamedRule{"Amoeba", Kind::totalistic, "B357/S1358"},
    NamedRule{"Pseudo Life", Kind::totalistic, "B357/S238"},
    NamedRule{"Assimilation", Kind::totalistic, "B345/S4567"},
    NamedRule{"Stains", Kind::totalistic, "B3678/S235678"},
    NamedRule{"DryLife", Kind::totalistic, "B37/S23"},
    NamedRule{"Pedestrian Life", Kind::totalistic, "B38/S23"},
    NamedRule{"Live Free or Die", Kind::totalistic, "B2/S0"},
    NamedRule{"Gnarl", Kind::totalistic, "B1/S1"},
};

constexpr std::array others{
    NamedRule{"Banks-I", Kind::rule_table, {}},
    NamedRule{"Banks-III", Kind::rule_table, {}},
    NamedRule{"Banks-II", Kind::multi_state, {}},
    NamedRule{"Banks-IV", Kind::multi_state, {}},
    NamedRule{"BBM-Margolus-emulated", Kind::multi_state, {}},
    NamedRule{"BriansBrain", Kind::multi_state, {}},
    NamedRule{"Byl-Loop", Kind::multi_state, {}},
    NamedRule{"Caterpillars", Kind::multi_state, {}},
    NamedRule{"Chou-Reggia-1", Kind::multi_state, {}},
    NamedRule{"Chou-Reggia-2", Kind::multi_state, {}},
    NamedRule{"Codd", Kind::multi_state, {}},
    NamedRule{"Codd2", Kind::multi_state, {}},
    NamedRule{"CrittersMargolus_emulated", Kind::multi_state, {}},
    NamedRule{"Devore", Kind::multi_state, {}},
    NamedRule{"DLA-Margolus-emulated", Kind::multi_state, {}},
    NamedRule{"Ed-rep", Kind::multi_state, {}},
    NamedRule{"Evoloop", Kind::multi_state, {}},
    NamedRule{"Evoloop-finite", Kind::multi_state, {}},
    NamedRule{"HPP", Kind::multi_state, {}},
    NamedRule{"HPPMargolus_emulated", Kind::multi_state, {}},
    NamedRule{"Hutton32", Kind::multi_state, {}},
    NamedRule{"JvN29", Kind::multi_state, {}},
    NamedRule{"Langtons-Ant", Kind::multi_state, {}},
    NamedRule{"Langtons-Loops", Kind::multi_state, {}},
    NamedRule{"LifeHistory", Kind::multi_state, {}},
    NamedRule{"LifeOnTheEdge", Kind::multi_state, {}},
    NamedRule{"LifeOnTheSlope", Kind::multi_state, {}},
    NamedRule{"Nobili32", Kind::multi_state, {}},
    NamedRule{"Perrier", Kind::multi_state, {}},
    NamedRule{"Sand-Margolus-emulated", Kind::multi_state, {}},
    NamedRule{"Sand-square4cyclic_emulated", Kind::multi_state, {}},
    NamedRule{"SDSR-Loop", Kind::multi_state, {}},
    NamedRule{"StarWars", Kind::multi_state, {}},
    NamedRule{"Tempesti", Kind::multi_state, {}},
    NamedRule{"TMGasMargolus_emulated", Kind::multi_state, {}},
    NamedRule{"TripATronMargolus_emulated", Kind::multi_state, {}},
    NamedRule{"WireWorld", Kind::multi_state, {}},
};

/// Families of generated multi-state rules, named by a prefix and their parameters
/// ("Worm-1040512", "Turmite_121181121020", "LangtonsAnt_LLRR").
constexpr std::array multi_state_families{
    NamedRule{"Worm-", Kind::multi_state, {}},
    NamedRule{"Turmite_", Kind::multi_state, {}},
    NamedRule{"TriTurmite_", Kind::multi_state, {}},
    NamedRule{"AbsoluteTurmite_", Kind::multi_state, {}},
    NamedRule{"LangtonsAnt_", Kind::multi_state, {}},
};

/// Lowercase letters and digits only: the form names are compared in.
std::string key_of(std::string_view name) {
  std::string key;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) key += static_cast<char>(std::tolower(u));
  }
  return key;
}

} // namespace

std::optional<NamedRule> find_named_rule(std::string_view name) {
  const std::string key = key_of(name);
  if (key.empty()) return std::nullopt;
  const auto named = [&](const NamedRule& r) { return key_of(r.name) == key; };
  if (const auto* const hit = std::ranges::find_if(totalistic, named); hit != totalistic.end()) {
    return *hit;
  }
  if (const auto* const hit = std::ranges::find_if(others, named); hit != others.end()) return *hit;
  for (const NamedRule& family : multi_state_families) {
    const std::string prefix = key_of(family.name);
    if (key.size() > prefix.size() && key.starts_with(prefix)) return family;
  }
  return std::nullopt;
}

} // namespace lifebench::detail
