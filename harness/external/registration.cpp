// The experiment of an external experiment's executable: lifebench-exp-<name> reads
// <name>.external.toml beside itself, so that one adapter serves every description.
#include "description.hpp"
#include "external_simulator.hpp"
#include "lifebench/error.hpp"
#include "program.hpp"

#include <filesystem>
#include <memory>

namespace lifebench::external {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPrefix = "lifebench-exp-";

ExperimentInfo from_own_description() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  const std::string file = self.filename().string();
  if (error || !file.starts_with(kPrefix)) {
    throw Error("an external experiment's executable is named lifebench-exp-<name>, not '" + file +
                "'");
  }
  const std::string name = file.substr(kPrefix.size());
  const auto description = std::make_shared<const Description>(
      read_description(self.parent_path() / (name + ".external.toml")));
  const Description& d = *description;

  std::optional<Program> program;
  std::optional<std::string> unavailable = d.fault;
  if (!unavailable) {
    try {
      program = find_program(d);
    } catch (const Error& e) {
      unavailable = e.what();
    }
  }
  return ExperimentInfo{
      .about = {name, d.family, d.backend, d.source, d.technique},
      .axes = {},
      .unavailable = [unavailable] { return unavailable; },
      .unsupported =
          [description](const Problem& problem, const Params&) {
            return unsupported_reason(*description, problem);
          },
      .make = [description, program](const Problem& problem,
                                     const Params&) -> std::unique_ptr<Simulator> {
        LIFEBENCH_EXPECTS(program,
                          "the program of " + description->file.string() + " is unavailable");
        return std::make_unique<ExternalSimulator>(description, *program, problem);
      },
      .external = {{"description", d.file.string()},
                   {"program", program ? program->path.string() : ""},
                   {"version", program ? program->version : ""}}};
}

} // namespace
} // namespace lifebench::external

LIFEBENCH_EXPERIMENT(lifebench::external::from_own_description())
