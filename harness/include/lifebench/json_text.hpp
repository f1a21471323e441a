// JSON as lifebench writes it into files, for the experiment executables and the driver alike.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lifebench {

/// `value` as JSON text indented by two spaces, with a final newline. Strings the system gave
/// us need not be UTF-8 (a path, another process's arguments): their stray bytes become
/// U+FFFD, so that a record keeps the rest instead of failing to be written at all.
inline std::string json_text(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace lifebench
