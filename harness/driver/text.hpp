// Small text and time helpers of the driver.
#pragma once

#include "lifebench/join.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lifebench::driver {

/// Shell-style wildcard match (`*`, `?`, `[...]`) of a whole name.
bool glob_match(const std::string& pattern, const std::string& name);

/// Now in UTC, ISO 8601 ("2026-11-22T15:30:00Z").
std::string utc_now_iso();

/// Now in UTC as a file name ("20261122T153000Z").
std::string utc_now_compact();

/// A number as short as it reads well: "1.23e9", "0.5", "600".
std::string format_number(double value, int significant = 3);

/// "killed by signal 11 (Segmentation fault)".
std::string describe_signal(int signal);

/// The last non-empty line of `text`, without a leading "lifebench: error: ".
std::string last_line(std::string_view text);

/// Keeps the last `limit` bytes of `buffer` (cut at a line start where one is near).
void keep_tail(std::string& buffer, std::size_t limit);

} // namespace lifebench::driver
