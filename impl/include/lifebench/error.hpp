// One exception type for every user-facing failure: bad input, unsupported
// configurations, unavailable devices. Its message is one line that the CLI
// prints as it is.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace lifebench {

/// A failure the user caused or can fix; `what()` is one self-contained line.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Malformed text input; the message names the source, line and column.
class ParseError : public Error {
public:
  ParseError(const std::string& source, int line, int column, const std::string& what)
      : Error(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what),
        line_(line), column_(column) {}
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] int column() const { return column_; }

private:
  int line_;
  int column_;
};

/// `text` between two `mark`s, for naming input in a message: its control characters as \xNN
/// (a NUL would cut the message short, an escape sequence command the terminal), and a text
/// longer than 80 bytes then cut to its first 40 and last 40 (at characters' starts) around
/// "…", so that no input makes a message longer than a line and a long path keeps its file's
/// name.
std::string quote(std::string_view text, char mark = '"');

} // namespace lifebench

/// Precondition check that throws lifebench::Error with the given reason.
#define LIFEBENCH_EXPECTS(cond, reason)                                                            \
  do {                                                                                             \
    if (!(cond)) throw ::lifebench::Error(reason);                                                 \
  } while (false)
