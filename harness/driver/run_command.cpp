// lifebench run --impl NAME ...: the experiment executable's own `run`, in place of this process.
#include "commands.hpp"
#include "discovery.hpp"
#include "lifebench/error.hpp"
#include "process.hpp"
#include "text.hpp"

#include <iostream>

namespace lifebench::driver {

int run_command(const GlobalOptions& global, const std::string& impl,
                const std::vector<std::string>& arguments) {
  const auto folders = experiment_folders(global.experiment_folders);
  // Only the one asked for is described.
  const Catalog catalog = discover(folders, [&](const std::string& name) { return name == impl; });
  if (interrupt_signal() != 0) return kExitInterrupted;
  if (const auto* broken = catalog.find_broken(impl)) {
    throw Error(impl + " cannot be used: " + broken->reason);
  }
  const Experiment* e = catalog.find(impl);
  if (e == nullptr) {
    throw Error("unknown experiment " + quote(impl, '\'') + " (known: " + join(catalog.names) +
                ")");
  }
  if (!e->available) {
    std::cerr << "lifebench: error: " << e->name << " is unavailable: " << e->reason << "\n";
    return kExitUnavailable;
  }
  std::vector<std::string> argv{e->binary.string(), "run"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  exec_process(argv);
}

} // namespace lifebench::driver
