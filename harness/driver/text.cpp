#include "text.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fnmatch.h>

namespace lifebench::driver {

bool glob_match(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

namespace {

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  const std::size_t n = std::strftime(text, sizeof text, format, &utc);
  return std::string(text, n);
}

} // namespace

std::string utc_now_iso() {
  return utc_now("%Y-%m-%dT%H:%M:%SZ");
}

std::string utc_now_compact() {
  return utc_now("%Y%m%dT%H%M%SZ");
}

std::string format_number(double value, int significant) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
  const double magnitude = std::fabs(value);
  char text[64];
  if (magnitude != 0 && (magnitude >= 1e5 || magnitude < 1e-3)) {
    // Scientific without the "+0" padding printf puts in the exponent: 1.23e9.
    int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    double mantissa = value / std::pow(10.0, exponent);
    std::snprintf(text, sizeof text, "%.*f", significant - 1, mantissa);
    if (std::fabs(std::strtod(text, nullptr)) >= 10.0) { // rounding carried into a new digit
      ++exponent;
      mantissa = value / std::pow(10.0, exponent);
      std::snprintf(text, sizeof text, "%.*f", significant - 1, mantissa);
    }
    return std::string(text) + "e" + std::to_string(exponent);
  }
  if (magnitude >= std::pow(10.0, significant)) {
    std::snprintf(text, sizeof text, "%.0f", value); // %g would switch to an exponent
  } else {
    std::snprintf(text, sizeof text, "%.*g", significant, value);
  }
  return text;
}

std::string describe_signal(int signal) {
  const char* name = strsignal(signal);
  std::string text = "killed by signal " + std::to_string(signal);
  if (name != nullptr) text += std::string(" (") + name + ")";
  return text;
}

std::string last_line(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  const auto newline = text.find_last_of('\n');
  if (newline != std::string_view::npos) text.remove_prefix(newline + 1);
  constexpr std::string_view prefix = "lifebench: error: ";
  if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
  return std::string(text);
}

void keep_tail(std::string& buffer, std::size_t limit) {
  if (buffer.size() <= limit) return;
  std::size_t cut = buffer.size() - limit;
  // Start at a whole line when one starts within the first quarter of what is kept.
  const auto newline = buffer.find('\n', cut);
  if (newline != std::string::npos && newline - cut < limit / 4) cut = newline + 1;
  buffer.erase(0, cut);
}

} // namespace lifebench::driver
