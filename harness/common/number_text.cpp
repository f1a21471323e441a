#include "lifebench/number_text.hpp"

#include <array>
#include <charconv>

namespace lifebench {

std::string number_text(double value) {
  std::array<char, 32> text{};
  auto* const end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
  return {text.data(), end};
}

} // namespace lifebench
