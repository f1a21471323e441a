// Lists in messages, for the experiment executables and the driver alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lifebench {

/// "a, b, c"; `none` when empty.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ",
                 std::string_view none = "none");

} // namespace lifebench
