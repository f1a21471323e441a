#include "result_fields.hpp"

namespace lifebench::driver {

std::string string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool verified(const nlohmann::json& result) {
  const auto verification = result.find("verification");
  return string_at(result, "status") == "ok" && verification != result.end() &&
         string_at(*verification, "status") == "passed";
}

} // namespace lifebench::driver
