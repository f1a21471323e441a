// Command-line parsing shared by the driver and the experiment executables: a
// usage error reads as every other error, one "lifebench: error:" line.
#pragma once

#include "lifebench/exit_codes.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string_view>

namespace lifebench {

/// Parses the command line; returns the exit status when there is nothing more to do:
/// 0 after --help or --version, kExitUsage after a usage error (`help` says where to look).
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv,
                                             std::string_view help) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's messages may run over several lines; the first says what is wrong.
    const std::string_view message = e.what();
    std::cerr << "lifebench: error: " << message.substr(0, message.find('\n')) << " (see " << help
              << ")\n";
    return kExitUsage;
  }
  return std::nullopt;
}

} // namespace lifebench
