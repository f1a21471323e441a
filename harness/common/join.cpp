#include "lifebench/join.hpp"

namespace lifebench {

std::string join(const std::vector<std::string>& items, std::string_view separator,
                 std::string_view none) {
  if (items.empty()) return std::string(none);
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

} // namespace lifebench
