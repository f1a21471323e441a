// Command-line parsing shared by the driver and the experiment executables: a
// usage error reads as every other error, one "lifebench: error:" line.
#pragma once

#include "lifebench/exit_codes.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace lifebench {

/// The most generations an option takes: a sweep file's integers are 64-bit signed too.
inline constexpr std::uint64_t kMaxGenerations = std::numeric_limits<std::int64_t>::max();

/// A check that an option is a whole number from `minimum` to `maximum`, in decimal digits
/// only. CLI11's own conversion reads "-1" into an unsigned as 2^64 - 1, "0x10" as 16 and
/// "" as 0, and saturates past the type's largest value.
inline CLI::Validator whole_number(std::uint64_t minimum, std::uint64_t maximum) {
  const std::string range = std::to_string(minimum) + " to " + std::to_string(maximum);
  return {[=](const std::string& text) -> std::string {
            std::uint64_t value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            const bool digits = !text.empty() && text.front() >= '0' && text.front() <= '9';
            if (digits && error == std::errc{} && stop == end && value >= minimum &&
                value <= maximum) {
              return {};
            }
            return "expected a whole number from " + range + ", not \"" + text + "\"";
          },
          "INT from " + range};
}

/// A check that an option is a finite number of seconds above 0: CLI11 takes "nan" and
/// reads a number followed by other text.
inline CLI::Validator positive_seconds() {
  return {[](const std::string& text) -> std::string {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (!text.empty() && error == std::errc{} && stop == end && std::isfinite(value) &&
                value > 0) {
              return {};
            }
            return "expected a finite number of seconds above 0, not \"" + text + "\"";
          },
          "SECONDS"};
}

/// A check that an option is a number strictly between 0 and 1 (a fraction, a significance
/// level): CLI11's Range takes "nan", for which every comparison is false, and both ends.
inline CLI::Validator open_fraction() {
  return {[](const std::string& text) -> std::string {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            if (!text.empty() && error == std::errc{} && stop == end && value > 0 && value < 1) {
              return {};
            }
            return "expected a number between 0 and 1 (both excluded), not \"" + text + "\"";
          },
          "FRACTION in (0, 1)"};
}

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
