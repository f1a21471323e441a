// Small text helpers shared by the parsers of rules, shapes, soups and files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifebench::detail {

/// The number `text` spells in decimal digits only (no sign, no spaces), if it fits.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

/// `text` split at every `separator`; an empty text gives one empty part.
std::vector<std::string_view> split(std::string_view text, char separator);

/// `text` in double quotes, for naming the offending text in a message.
std::string quote(std::string_view text);

/// The low `digits` hexadecimal digits of `value`, lowercase, leading zeros kept.
std::string hex(std::uint64_t value, int digits);

} // namespace lifebench::detail
