#include "results_schema.hpp"

#include "lifebench/error.hpp"

#include <map>
#include <memory>
#include <string>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>
#include <vector>

namespace lifebench::driver {
namespace {

/// Faults named in one message; the rest are counted.
constexpr std::size_t kFaultsNamed = 2;

/// The schema with its root replaced by the definition `kind`, parsed once. Valijson reads
/// draft 7, which has every keyword our draft 2020-12 schema uses (`$ref` into `$defs` is a
/// JSON pointer like any other; `if`/`then`/`else`, `const`, `not`).
const valijson::Schema& schema_of(const std::string& kind) {
  static const auto schemas = [] {
    const nlohmann::json document = nlohmann::json::parse(kResultsSchemaText);
    std::map<std::string, std::unique_ptr<valijson::Schema>> parsed;
    for (const auto& [name, definition] : document.at("$defs").items()) {
      const nlohmann::json root = {{"$defs", document.at("$defs")}, {"$ref", "#/$defs/" + name}};
      auto schema = std::make_unique<valijson::Schema>();
      valijson::SchemaParser(valijson::SchemaParser::kDraft7)
          .populateSchema(valijson::adapters::NlohmannJsonAdapter(root), *schema);
      parsed.emplace(name, std::move(schema));
    }
    return parsed;
  }();
  return *schemas.at(kind);
}

/// Valijson's context ["<root>", "[configurations]", "[3]", "[status]"] as the place
/// "configurations[3].status" and the JSON pointer "/configurations/3/status".
std::pair<std::string, nlohmann::json::json_pointer>
place_of(const std::vector<std::string>& context) {
  std::string place;
  nlohmann::json::json_pointer pointer;
  for (const auto& part : context) {
    if (part.size() < 2 || part.front() != '[' || part.back() != ']') continue; // <root>
    const std::string key = part.substr(1, part.size() - 2);
    const bool index = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    if (index) {
      place += "[" + key + "]";
      pointer /= std::stoul(key);
    } else {
      place += (place.empty() ? "" : ".") + key;
      pointer /= key;
    }
  }
  return {place.empty() ? "the document" : place, pointer};
}

} // namespace

void check_against_schema(const std::filesystem::path& file, const nlohmann::json& contents,
                          const char* kind) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  if (validator.validate(schema_of(kind), valijson::adapters::NlohmannJsonAdapter(contents),
                         &results)) {
    return;
  }
  // The faults themselves, not the "Failed to validate ..." of each object around them.
  std::vector<std::string> faults;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    if (error.description.starts_with("Failed to validate")) continue;
    const auto [place, pointer] = place_of(error.context);
    std::string fault = place + ": " + error.description;
    if (contents.contains(pointer)) {
      const nlohmann::json& found = contents.at(pointer);
      if (!found.is_structured()) {
        fault +=
            " (found " + (found.is_string() ? quote(found.get<std::string>()) : found.dump()) + ")";
      }
    }
    faults.push_back(std::move(fault));
  }
  if (faults.empty()) faults.emplace_back("the document: does not match " + std::string(kind));
  std::string message = file.string() + ": ";
  for (std::size_t i = 0; i < faults.size() && i < kFaultsNamed; ++i)
    message += (i == 0 ? "" : "; ") + faults[i];
  if (faults.size() > kFaultsNamed) {
    message += "; and " + std::to_string(faults.size() - kFaultsNamed) + " more";
  }
  throw Error(message + " (harness/results.schema.json)");
}

} // namespace lifebench::driver
