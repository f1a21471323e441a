#include "provenance.hpp"

#include "lifebench/environment.hpp"
#include "lifebench/error.hpp"
#include "results.hpp"
#include "source_info.hpp"

#include <string>

namespace lifebench::driver {
namespace {

/// "sha256:0123456789ab… (commit 0123456, dirty)": a source tree, short enough for one line.
std::string source_text(const nlohmann::json& build) {
  std::string text = string_at(build, "source_hash").substr(0, std::string("sha256:").size() + 12);
  const std::string commit = string_at(build, "git_commit");
  text += " (commit " + (commit.empty() ? std::string("unknown") : commit.substr(0, 7));
  const auto dirty = build.find("git_dirty");
  if (dirty != build.end() && *dirty == true) text += ", dirty";
  return text + ")";
}

} // namespace

nlohmann::json build_provenance() {
  nlohmann::json build = build_environment();
  build.update(source_info());
  return build;
}

void check_same_machine_and_source(const std::filesystem::path& dir, const nlohmann::json& earlier,
                                   const nlohmann::json& machine, const nlohmann::json& build) {
  const std::string refused = "cannot resume in " + dir.string() + ": ";
  const std::string advice = "; measure into another --out";
  const auto it = earlier.find("build");
  const nlohmann::json earlier_build = it != earlier.end() ? *it : nlohmann::json::object();
  const std::string earlier_machine = string_at(earlier.value("machine", nlohmann::json()), "name");
  if (earlier_machine.empty() || string_at(earlier_build, "source_hash").empty()) {
    throw Error(refused + "its manifest names no machine or source hash (an older lifebench " +
                "wrote it)" + advice);
  }
  if (earlier_machine != string_at(machine, "name")) {
    throw Error(refused + "it was measured on machine '" + earlier_machine + "', this is '" +
                string_at(machine, "name") + "'" + advice);
  }
  if (string_at(earlier_build, "source_hash") != string_at(build, "source_hash")) {
    throw Error(refused + "it was measured with binaries of source " + source_text(earlier_build) +
                ", these are of " + source_text(build) + advice);
  }
}

} // namespace lifebench::driver
