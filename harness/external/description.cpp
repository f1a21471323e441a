#include "description.hpp"

#include "lifebench/error.hpp"
#include "lifebench/join.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <regex>
#include <toml++/toml.h>
#include <tuple>

namespace lifebench::external {
namespace {

namespace fs = std::filesystem;

/// The keys of each table ("" is the top level).
const std::map<std::string, std::vector<std::string>> kKeys = {
    {"",
     {"family", "backend", "source", "technique", "program", "run", "timing", "place", "supports"}},
    {"program",
     {"name", "path_variable", "install", "version_args", "version_pattern", "time_limit_s"}},
    {"run", {"command", "input", "output"}},
    {"timing", {"timer", "stream", "pattern", "unit", "take"}},
    {"place", {"command", "step", "then", "pattern"}},
    {"supports",
     {"rules", "b0", "boundaries", "width_multiple", "height_multiple", "depth_multiple",
      "min_width", "min_height", "min_depth", "note"}},
};

const std::map<std::string, double> kUnits = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};

/// The placeholders a command may hold, without braces.
const std::vector<std::string> kPlaceholders = {
    "program", "input", "output", "generations", "rule", "width", "height", "depth", "script"};

/// One piece of a command argument: literal text, or a placeholder's name.
struct Piece {
  bool placeholder = false;
  std::string text;
};

/// Splits a command argument at its placeholders; throws Error on a brace that opens no
/// known placeholder.
std::vector<Piece> pieces(const std::string& argument) {
  std::vector<Piece> result;
  std::size_t at = 0;
  while (at < argument.size()) {
    const std::size_t open = argument.find('{', at);
    if (open != at) {
      result.push_back({false, argument.substr(at, open - at)});
      if (open == std::string::npos) break;
    }
    const std::size_t close = argument.find('}', open);
    if (close == std::string::npos) throw Error("unclosed '{' in \"" + argument + "\"");
    const std::string name = argument.substr(open + 1, close - open - 1);
    if (std::find(kPlaceholders.begin(), kPlaceholders.end(), name) == kPlaceholders.end()) {
      std::vector<std::string> braced;
      braced.reserve(kPlaceholders.size());
      for (const auto& n : kPlaceholders)
        braced.push_back("{" + n + "}");
      throw Error("unknown placeholder {" + name + "} (placeholders: " + join(braced) + ")");
    }
    result.push_back({true, name});
    at = close + 1;
  }
  return result;
}

/// Whether an argument of `command` holds the placeholder `name`.
bool has_placeholder(const std::vector<std::string>& command, const std::string& name) {
  return std::any_of(command.begin(), command.end(), [&](const auto& arg) {
    const auto parts = pieces(arg);
    return std::any_of(parts.begin(), parts.end(),
                       [&](const Piece& p) { return p.placeholder && p.text == name; });
  });
}

/// Reads the document's values, each message starting with "<file>:<line>: ".
class Reader {
public:
  Reader(fs::path file, const toml::table& root) : file_(std::move(file)), root_(root) {}

  [[noreturn]] void fail(const toml::source_region& where, const std::string& what) const {
    const auto line = where.begin.line;
    throw Error(file_.string() + (line > 0 ? ":" + std::to_string(line) : "") + ": " + what);
  }

  /// The table `section` ("" for the top level); empty when absent.
  [[nodiscard]] const toml::table& table(const std::string& section) const {
    static const toml::table none;
    if (section.empty()) return root_;
    const toml::node* node = root_.get(section);
    if (node == nullptr) return none;
    if (!node->is_table()) fail(node->source(), section + " must be a table ([" + section + "])");
    return *node->as_table();
  }

  /// Fails on the first key of any table that the format does not know.
  void check_keys() const {
    for (const auto& [section, known] : kKeys) {
      for (const auto& [key, value] : table(section)) {
        if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
        fail(key.source(), "unknown key '" + name(section, std::string(key.str())) + "' (keys" +
                               (section.empty() ? "" : " of [" + section + "]") + ": " +
                               join(known) + ")");
      }
    }
  }

  std::optional<std::string> string(const std::string& section, const char* key) const {
    const toml::node* node = this->node(section, key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_string() || node->as_string()->get().empty()) {
      fail(node->source(), name(section, key) + " must be a non-empty string");
    }
    return node->as_string()->get();
  }

  std::string required(const std::string& section, const char* key) const {
    auto value = string(section, key);
    if (!value) fail(toml::source_region{}, "no " + name(section, key));
    return *value;
  }

  std::string choice(const std::string& section, const char* key,
                     const std::vector<std::string>& allowed, std::string fallback) const {
    const auto value = string(section, key);
    if (!value) return fallback;
    if (std::find(allowed.begin(), allowed.end(), *value) == allowed.end()) {
      fail(node(section, key)->source(),
           name(section, key) + " is \"" + *value + "\", not one of " + join(allowed));
    }
    return *value;
  }

  /// A list of non-empty strings, each passed to `check` (which may throw Error).
  std::vector<std::string>
  strings(const std::string& section, const char* key,
          const std::function<void(const std::string&)>& check = {}) const {
    const toml::node* node = this->node(section, key);
    if (node == nullptr) return {};
    const toml::array* array = node->as_array();
    if (array == nullptr) fail(node->source(), name(section, key) + " must be a list of strings");
    std::vector<std::string> values;
    for (const toml::node& item : *array) {
      if (!item.is_string() || item.as_string()->get().empty()) {
        fail(item.source(), name(section, key) + " must hold non-empty strings");
      }
      values.push_back(item.as_string()->get());
      if (!check) continue;
      try {
        check(values.back());
      } catch (const Error& e) {
        fail(item.source(), name(section, key) + ": " + e.what());
      }
    }
    return values;
  }

  std::optional<std::int64_t> positive(const std::string& section, const char* key) const {
    const toml::node* node = this->node(section, key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_integer() || node->as_integer()->get() < 1) {
      fail(node->source(), name(section, key) + " must be a whole number of at least 1");
    }
    return node->as_integer()->get();
  }

  std::optional<double> seconds(const std::string& section, const char* key) const {
    const toml::node* node = this->node(section, key);
    if (node == nullptr) return std::nullopt;
    const std::optional<double> value = node->value<double>();
    if (!value || !std::isfinite(*value) || *value <= 0) {
      fail(node->source(), name(section, key) + " must be a positive number of seconds");
    }
    return value;
  }

  /// A regular expression with at least `groups` groups, which the values are read from.
  std::string pattern(const std::string& section, const char* key, unsigned groups) const {
    std::string text = required(section, key);
    try {
      const std::regex regex(text);
      if (regex.mark_count() < groups) {
        fail(node(section, key)->source(),
             name(section, key) + " '" + text + "' has " +
                 (regex.mark_count() == 0 ? "no group" : "one group") + " ( ) where it needs " +
                 (groups == 1 ? "one around the number" : "two around the numbers"));
      }
    } catch (const std::regex_error& e) {
      fail(node(section, key)->source(),
           name(section, key) + " '" + text + "' is not a regular expression: " + e.what());
    }
    return text;
  }

  [[nodiscard]] const toml::node* node(const std::string& section, const char* key) const {
    return table(section).get(key);
  }

private:
  static std::string name(const std::string& section, const std::string& key) {
    return section.empty() ? key : section + "." + key;
  }

  fs::path file_;
  const toml::table& root_;
};

FileFormat format(const Reader& reader, const char* key) {
  const std::string name = reader.choice("run", key, {"rle", "lbu", "dat", "mc"}, "rle");
  if (name == "mc" && std::string_view(key) == "input") {
    reader.fail(reader.node("run", key)->source(),
                "run.input cannot be mc: lifebench reads macrocell files but writes none");
  }
  return name == "rle"   ? FileFormat::rle
         : name == "lbu" ? FileFormat::lbu
         : name == "mc"  ? FileFormat::mc
                         : FileFormat::dat;
}

/// Whether `format` holds the states of `family`: a universe file holds square grids only.
bool holds(FileFormat format, const std::string& family) {
  if (family == "3d") return format == FileFormat::dat;
  return format == FileFormat::rle || format == FileFormat::mc ||
         (format == FileFormat::lbu && family == "square");
}

/// The optional [place] table; throws Error (the description's fault).
void read_place(const Reader& reader, Description& d) {
  if (reader.node("", "place") == nullptr) return;
  Place p;
  p.command = reader.strings("place", "command", [](const std::string& arg) { pieces(arg); });
  if (p.command.empty()) reader.fail(toml::source_region{}, "no place.command");
  const toml::source_region where = reader.node("place", "command")->source();
  if (p.command.front() != "{program}") {
    reader.fail(where, "place.command must start with {program}");
  }
  for (const char* needed : {"input", "script"}) {
    if (!has_placeholder(p.command, needed)) {
      reader.fail(where, std::string("place.command has no {") + needed + "}");
    }
  }
  if (has_placeholder(p.command, "output")) {
    reader.fail(where, "place.command cannot hold {output}: the place run writes no state");
  }
  p.step = reader.required("place", "step");
  p.then = reader.required("place", "then");
  p.pattern = reader.pattern("place", "pattern", 2);
  d.place = std::move(p);
}

/// Everything past the identity; throws Error (the description's fault).
void read_rest(const Reader& reader, Description& d) {
  reader.check_keys();
  d.program = reader.required("program", "name");
  if (d.program.find('/') != std::string::npos && !fs::path(d.program).is_absolute()) {
    reader.fail(reader.node("program", "name")->source(),
                "program.name must be a name to look up on PATH or an absolute path, not " +
                    d.program);
  }
  d.path_variable = reader.string("program", "path_variable").value_or("");
  d.install = reader.string("program", "install").value_or("");
  d.version_args = reader.strings("program", "version_args");
  if (!d.version_args.empty())
    d.version_pattern = reader.pattern("program", "version_pattern", 0);
  else if (reader.node("program", "version_pattern") != nullptr) {
    reader.fail(reader.node("program", "version_pattern")->source(),
                "program.version_pattern needs program.version_args");
  }
  d.time_limit_s = reader.seconds("program", "time_limit_s").value_or(d.time_limit_s);

  d.command = reader.strings("run", "command", [](const std::string& arg) { pieces(arg); });
  if (d.command.empty()) reader.fail(toml::source_region{}, "no run.command");
  const toml::source_region where = reader.node("run", "command")->source();
  if (d.command.front() != "{program}") reader.fail(where, "run.command must start with {program}");
  for (const char* needed : {"input", "output"}) {
    if (!has_placeholder(d.command, needed)) {
      reader.fail(where, std::string("run.command has no {") + needed +
                             "}: lifebench gives the program its states as files");
    }
  }
  if (has_placeholder(d.command, "script")) {
    reader.fail(where, "run.command cannot hold {script}: only place.command runs a script");
  }
  d.input = format(reader, "input");
  d.output = format(reader, "output");
  for (const auto& [key, value] : {std::pair{"input", d.input}, std::pair{"output", d.output}}) {
    if (!holds(value, d.family)) {
      reader.fail(reader.node("run", key)->source(), std::string("run.") + key + " must be " +
                                                         (d.family == "3d"       ? "dat"
                                                          : d.family == "square" ? "rle or lbu"
                                                                                 : "rle") +
                                                         " for the " + d.family + " family");
    }
  }

  const std::string timer = reader.choice("timing", "timer", {"process", "printed"}, "");
  if (timer.empty()) reader.fail(toml::source_region{}, "no timing.timer (process or printed)");
  d.timer = timer == "process" ? Timer::process : Timer::printed;
  if (d.timer == Timer::printed) {
    d.on_stderr = reader.choice("timing", "stream", {"stdout", "stderr"}, "stdout") == "stderr";
    d.pattern = reader.pattern("timing", "pattern", 1);
    std::vector<std::string> units;
    units.reserve(kUnits.size());
    for (const auto& [unit, seconds] : kUnits)
      units.push_back(unit);
    const std::string unit = reader.choice("timing", "unit", units, "");
    if (unit.empty()) reader.fail(toml::source_region{}, "no timing.unit (" + join(units) + ")");
    d.unit_s = kUnits.at(unit);
    d.take = reader.choice("timing", "take", {"last", "last-minus-first"}, "last") == "last"
                 ? Take::last
                 : Take::last_minus_first;
  } else {
    for (const char* key : {"stream", "pattern", "unit", "take"}) {
      if (const toml::node* node = reader.node("timing", key)) {
        reader.fail(node->source(), std::string("timing.") + key + " is for timer = \"printed\"");
      }
    }
  }

  Supports& s = d.supports;
  const Topology topology = d.family == "hex"  ? Topology::hex
                            : d.family == "3d" ? Topology::cube
                                               : Topology::square;
  for (const auto& text : reader.strings("supports", "rules", [&](const std::string& text) {
         const RuleSpec spec = parse_rule_spec(text);
         if (spec.shape) throw Error("rule " + text + " has a bounded grid: give the rule alone");
         if (spec.rule.topology != topology) {
           throw Error("rule " + text + " is not of the " + d.family + " family");
         }
       })) {
    s.rules.push_back(parse_rule_spec(text).rule);
  }
  if (const toml::node* node = reader.node("supports", "b0")) {
    if (!node->is_boolean()) reader.fail(node->source(), "supports.b0 must be true or false");
    s.b0 = node->as_boolean()->get();
  }
  for (const auto& text : reader.strings("supports", "boundaries",
                                         [](const std::string& text) { parse_boundary(text); })) {
    s.boundaries.push_back(parse_boundary(text));
  }
  s.multiple = {reader.positive("supports", "width_multiple").value_or(1),
                reader.positive("supports", "height_multiple").value_or(1),
                reader.positive("supports", "depth_multiple").value_or(1)};
  s.minimum = {reader.positive("supports", "min_width").value_or(1),
               reader.positive("supports", "min_height").value_or(1),
               reader.positive("supports", "min_depth").value_or(1)};
  s.note = reader.string("supports", "note").value_or("");
  read_place(reader, d);
}

} // namespace

Description read_description(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error)) {
    throw Error("no description " + file.string() + " beside the experiment's executable");
  }
  toml::table document;
  try {
    document = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw Error(file.string() + ":" + std::to_string(begin.line) + ":" +
                std::to_string(begin.column) + ": " + std::string(e.description()));
  }
  const Reader reader(file, document);
  Description d;
  d.file = file;
  d.family = reader.required("", "family");
  d.backend = reader.required("", "backend");
  d.source = reader.required("", "source");
  d.technique = reader.required("", "technique");
  if (d.family != "square" && d.family != "hex" && d.family != "3d") {
    reader.fail(reader.node("", "family")->source(),
                "family is \"" + d.family + "\", not one of square, hex, 3d");
  }
  if (d.backend != "cpu" && d.backend != "simd" && d.backend != "cuda" && d.backend != "opencl") {
    reader.fail(reader.node("", "backend")->source(),
                "backend is \"" + d.backend + "\", not one of cpu, simd, cuda, opencl");
  }
  try {
    read_rest(reader, d);
  } catch (const Error& e) {
    d.fault = e.what();
  }
  return d;
}

std::optional<std::string> unsupported_reason(const Description& d, const Problem& problem) {
  const Supports& s = d.supports;
  std::optional<std::string> reason;
  if (!s.rules.empty() &&
      std::find(s.rules.begin(), s.rules.end(), problem.rule) == s.rules.end()) {
    std::vector<std::string> rules;
    for (const auto& rule : s.rules)
      rules.push_back(rule.to_string());
    reason = "it runs the rules " + join(rules) + ", not " + problem.rule.to_string();
  } else if (!s.b0 && problem.rule.born(0)) {
    reason = "it runs no rule with B0 (birth with no live neighbour), as " +
             problem.rule.to_string() + " is";
  } else if (!s.boundaries.empty() && std::find(s.boundaries.begin(), s.boundaries.end(),
                                                problem.boundary) == s.boundaries.end()) {
    reason = "it runs no " + to_string(problem.boundary) + " boundary";
  }
  const std::array<std::tuple<const char*, std::int64_t, std::int64_t, std::int64_t>, 3> sides{
      {{"width", problem.shape.width, s.multiple.width, s.minimum.width},
       {"height", problem.shape.height, s.multiple.height, s.minimum.height},
       {"depth", problem.shape.depth, s.multiple.depth, s.minimum.depth}}};
  for (const auto& [side, size, multiple, minimum] : sides) {
    if (reason) break;
    if (size % multiple != 0) {
      reason = std::string(side) + " " + std::to_string(size) + " is not a multiple of " +
               std::to_string(multiple);
    } else if (size < minimum) {
      reason =
          std::string(side) + " " + std::to_string(size) + " is under " + std::to_string(minimum);
    }
  }
  if (reason && !s.note.empty()) *reason += ": " + s.note;
  return reason;
}

std::vector<std::string>
expand_command(const std::vector<std::string>& command,
               const std::vector<std::pair<std::string, std::string>>& values) {
  std::vector<std::string> argv;
  for (const auto& argument : command) {
    std::string text;
    for (const Piece& piece : pieces(argument)) {
      if (!piece.placeholder) {
        text += piece.text;
        continue;
      }
      const auto value = std::find_if(values.begin(), values.end(),
                                      [&](const auto& v) { return v.first == piece.text; });
      LIFEBENCH_EXPECTS(value != values.end(), "no value for {" + piece.text + "}");
      text += value->second;
    }
    argv.push_back(std::move(text));
  }
  return argv;
}

std::string extension(FileFormat format) {
  switch (format) {
  case FileFormat::rle:
    return ".rle";
  case FileFormat::lbu:
    return ".lbu";
  case FileFormat::mc:
    return ".mc";
  case FileFormat::dat:
    break;
  }
  return ".dat";
}

} // namespace lifebench::external
