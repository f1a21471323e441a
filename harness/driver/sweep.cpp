#include "sweep.hpp"

#include "lifebench/error.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/params.hpp"
#include "lifebench/pattern.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <toml++/toml.h>

namespace lifebench::driver {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kRunKeys = {
    "sweeps",      "experiment",  "rule",   "boundary",        "shape",         "density",
    "generations", "repetitions", "warmup", "time_limit_s",    "params",        "table",
    "row",         "column",      "ties",   "max_repetitions", "target_rel_ci", "timing_budget_s",
    "pattern",     "offset"};
/// What [defaults] may give every run: not what names a run's experiment or its cells.
const std::vector<std::string> kDefaultKeys = {"sweeps",        "rule",
                                               "boundary",      "shape",
                                               "density",       "generations",
                                               "repetitions",   "warmup",
                                               "time_limit_s",  "params",
                                               "table",         "max_repetitions",
                                               "target_rel_ci", "timing_budget_s",
                                               "pattern",       "offset"};
const std::vector<std::string> kTieKeys = {"table", "row", "column"};
/// The most configurations one `bench` expands, over all its sweeps' runs: more would take
/// the driver's memory before any of them ran. Lists multiply, so a file of a megabyte could
/// ask for millions; they are counted before any value is read.
constexpr std::uint64_t kMaxConfigurations = 100'000;

/// "more than 100000 configurations ...": the refusal of a count over kMaxConfigurations.
std::string too_many_configurations(const std::string& of) {
  return "more than " + std::to_string(kMaxConfigurations) + " configurations in " + of +
         " (shapes x densities or patterns x each parameter's values, over every run): split it";
}

std::string type_name(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a float";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::table:
    return "a table";
  case toml::node_type::date:
  case toml::node_type::time:
  case toml::node_type::date_time:
    return "a date or time";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}

int line_of(const toml::node& node) {
  return static_cast<int>(node.source().begin.line);
}

/// Reads one [[run]] table, taking what it does not give from [defaults]; every message
/// starts with the run's where() (and the line of the value, the default's if it is one).
class RunReader {
public:
  RunReader(const toml::table& table, const toml::table* defaults, SweepRun& run)
      : table_(table), defaults_(defaults), run_(run) {}

  [[noreturn]] void fail(const std::string& what, const toml::node* node = nullptr) const {
    SweepRun at = run_;
    if (node != nullptr && line_of(*node) > 0) at.line = line_of(*node);
    throw Error(at.where() + ": " + what);
  }

  /// The run's own value of `key`, else the default.
  const toml::node* find(const char* key) const {
    if (const toml::node* own = table_.get(key)) return own;
    return defaults_ != nullptr ? defaults_->get(key) : nullptr;
  }
  [[nodiscard]] bool has_own(const char* key) const { return table_.get(key) != nullptr; }

  /// The parameters' values by name: the default's, and the run's own where it gives one.
  [[nodiscard]] std::map<std::string, const toml::node*> params() const {
    std::map<std::string, const toml::node*> merged;
    for (const toml::table* source : {defaults_, &table_}) {
      const toml::node* params = source != nullptr ? source->get("params") : nullptr;
      if (params == nullptr) continue;
      const toml::table* values = params->as_table();
      if (values == nullptr) {
        fail("params must be a table, e.g. params = { threads = [1, 4] }, not " +
                 type_name(*params),
             params);
      }
      for (auto&& [key, node] : *values)
        merged[std::string(key.str())] = &node;
    }
    return merged;
  }

  std::optional<std::string> string(const char* key) const {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_string())
      fail(std::string(key) + " must be a string, not " + type_name(*node), node);
    const std::string value = node->as_string()->get();
    if (value.empty()) fail(std::string(key) + " must not be empty", node);
    return value;
  }

  /// A string or a list of strings, never empty.
  std::optional<std::vector<std::string>> strings(const char* key, bool single_allowed) const {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    std::vector<std::string> values;
    const std::string expected =
        std::string(key) +
        (single_allowed ? " must be a string or a list of strings" : " must be a list of strings");
    if (node->is_string() && single_allowed) {
      values.push_back(node->as_string()->get());
    } else if (const toml::array* array = node->as_array()) {
      for (const toml::node& item : *array) {
        if (!item.is_string()) fail(expected + ", not a list holding " + type_name(item), &item);
        values.push_back(item.as_string()->get());
      }
    } else {
      fail(expected + ", not " + type_name(*node), node);
    }
    if (values.empty()) fail(std::string(key) + " must not be empty", node);
    for (const auto& value : values) {
      if (value.empty()) fail(std::string(key) + " must not hold an empty string", node);
    }
    return values;
  }

  std::optional<std::int64_t> integer(const char* key, std::int64_t minimum) const {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_integer())
      fail(std::string(key) + " must be an integer, not " + type_name(*node), node);
    const std::int64_t value = node->as_integer()->get();
    if (value < minimum) {
      fail(std::string(key) + " must be at least " + std::to_string(minimum) + ", not " +
               std::to_string(value),
           node);
    }
    return value;
  }

  std::optional<double> seconds(const char* key) const {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    double value = 0;
    if (node->is_integer()) {
      value = static_cast<double>(node->as_integer()->get());
    } else if (node->is_floating_point()) {
      value = node->as_floating_point()->get();
    } else {
      fail(std::string(key) + " must be a number of seconds, not " + type_name(*node), node);
    }
    if (!(value > 0) || !std::isfinite(value)) {
      fail(std::string(key) + " must be a finite number above 0, not " + format_number(value, 6),
           node);
    }
    return value;
  }

  /// A number strictly between 0 and 1.
  std::optional<double> fraction(const char* key) const {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    const std::optional<double> value = node->is_number() ? node->value<double>() : std::nullopt;
    if (!value || !(*value > 0 && *value < 1)) {
      fail(std::string(key) + " must be a number between 0 and 1 (both excluded), e.g. 0.01", node);
    }
    return value;
  }

  /// A number in (0, 1] or a non-empty list of them, each given once.
  std::vector<double> densities(const char* key) const {
    const toml::node* node = find(key);
    if (node == nullptr) return {};
    const std::string expected =
        std::string(key) + " must be a number in (0, 1] or a list of them (e.g. 0.001)";
    const auto value = [&](const toml::node& item) {
      double d = 0;
      if (item.is_integer()) {
        d = static_cast<double>(item.as_integer()->get());
      } else if (item.is_floating_point()) {
        d = item.as_floating_point()->get();
      } else {
        fail(expected + ", not " + type_name(item), &item);
      }
      if (!(d > 0 && d <= 1)) fail(expected + ", not " + number_text(d), &item);
      return d;
    };
    std::vector<double> values;
    if (const toml::array* array = node->as_array()) {
      if (array->empty()) fail(std::string(key) + " must not be an empty list", node);
      for (const toml::node& item : *array) {
        const double d = value(item);
        if (std::find(values.begin(), values.end(), d) != values.end()) {
          fail(std::string(key) + " " + number_text(d) + " given twice", &item);
        }
        values.push_back(d);
      }
    } else {
      values.push_back(value(*node));
    }
    return values;
  }

  /// The configurations the run makes, from the lengths of its lists alone (shapes,
  /// densities, each parameter's values), at most kMaxConfigurations + 1.
  [[nodiscard]] std::uint64_t configurations() const {
    const auto length = [](const toml::node* node) -> std::uint64_t {
      const toml::array* array = node != nullptr ? node->as_array() : nullptr;
      return array != nullptr ? array->size() : 1;
    };
    std::uint64_t product =
        std::min(length(find("shape")) * length(find("density")) * length(find("pattern")),
                 kMaxConfigurations + 1);
    for (const auto& param : params())
      product = std::min(product * length(param.second), kMaxConfigurations + 1);
    return product;
  }

  void check_keys() const {
    for (auto&& [key, node] : table_) {
      const std::string name(key.str());
      if (std::find(kRunKeys.begin(), kRunKeys.end(), name) == kRunKeys.end()) {
        fail("unknown key " + quote(name, '\'') + " (known: " + join(kRunKeys) + ")", &node);
      }
    }
  }

private:
  const toml::table& table_;
  const toml::table* defaults_;
  SweepRun& run_;
};

std::string default_rule(const std::string& family) {
  if (family == "square") return "B3/S23";
  if (family == "hex") return "B2/S34H";
  if (family == "3d") return "B6/S567/3D";
  return {};
}

std::size_t count_sizes(const std::string& shape) {
  return static_cast<std::size_t>(std::count(shape.begin(), shape.end(), 'x')) + 1;
}

/// The cells a run measures: table, row and column (a string or a list), or `ties`.
void read_ties(const RunReader& reader, SweepRun& run) {
  const auto add = [&](Tie tie, const toml::node* node) {
    if (std::find(run.ties.begin(), run.ties.end(), tie) != run.ties.end()) {
      reader.fail("tie " + quote(tie.table + " / " + tie.row + " / " + tie.column, '\'') +
                      " given twice",
                  node);
    }
    run.ties.push_back(std::move(tie));
  };
  const auto row = reader.string("row");
  const auto columns = reader.strings("column", true);
  // A default table is the table of the runs that name a row and column; the others stay
  // untied, or tied by their own ties.
  const bool names_a_cell = row || columns;
  const auto table =
      names_a_cell || reader.has_own("table") ? reader.string("table") : std::nullopt;
  if (const toml::node* ties = reader.find("ties")) {
    if (reader.has_own("table") || names_a_cell) {
      reader.fail("ties and table/row/column exclude each other: give the cells one way", ties);
    }
    const toml::array* array = ties->as_array();
    if (array == nullptr || array->empty()) {
      reader.fail(
          "ties must be a non-empty list of { table = ..., row = ..., column = ... }, not " +
              (array == nullptr ? type_name(*ties) : std::string("an empty list")),
          ties);
    }
    for (const toml::node& item : *array) {
      const toml::table* cell = item.as_table();
      if (cell == nullptr) {
        reader.fail("ties must hold tables { table = ..., row = ..., column = ... }, not " +
                        type_name(item),
                    &item);
      }
      for (auto&& [key, node] : *cell) {
        if (std::find(kTieKeys.begin(), kTieKeys.end(), std::string(key.str())) == kTieKeys.end()) {
          reader.fail("unknown key " + quote(key.str(), '\'') +
                          " in a tie (known: " + join(kTieKeys) + ")",
                      &node);
        }
      }
      std::vector<std::string> values;
      for (const auto& key : kTieKeys) {
        const toml::node* node = cell->get(key);
        if (node == nullptr)
          reader.fail("a tie without " + key + ": give table, row and column", &item);
        if (!node->is_string() || node->as_string()->get().empty()) {
          reader.fail("a tie's " + key + " must be a non-empty string, not " +
                          (node->is_string() ? std::string("an empty one") : type_name(*node)),
                      node);
        }
        values.push_back(node->as_string()->get());
      }
      add(Tie{values[0], values[1], values[2]}, &item);
    }
    return;
  }
  if (!table && !row && !columns) return;
  if (!table || !row || !columns) {
    reader.fail("table, row and column go together: give all three (or ties = [...])");
  }
  for (const auto& column : *columns)
    add(Tie{*table, *row, column}, reader.find("column"));
}

/// The experiment a run measures: the owner of the file it is in, or the one it names.
const Experiment& experiment_of(const RunReader& reader, const Catalog& catalog,
                                const Experiment* owner) {
  const auto experiment = reader.string("experiment");
  if (owner != nullptr) {
    if (experiment && *experiment != owner->name) {
      reader.fail("experiment " + quote(*experiment, '\'') + " in the sweep file of " +
                      owner->name + " (leave it out or write " + quote(owner->name, '\'') + ")",
                  reader.find("experiment"));
    }
    return *owner;
  }
  if (!experiment) reader.fail("no experiment (a standalone sweep file names it in each run)");
  if (const Experiment* e = catalog.find(*experiment)) return *e;
  if (const auto* broken = catalog.find_broken(*experiment)) {
    reader.fail("experiment " + quote(*experiment, '\'') + " cannot be used: " + broken->reason,
                reader.find("experiment"));
  }
  reader.fail("unknown experiment " + quote(*experiment, '\'') + " (known: " + join(catalog.names) +
                  ")",
              reader.find("experiment"));
}

/// The run's rule (without a bounded grid, of the experiment's family) and boundary.
void read_rule(const RunReader& reader, const Experiment& e, SweepRun& run) {
  const std::string rule_text = reader.string("rule").value_or(default_rule(e.family));
  if (rule_text.empty()) {
    reader.fail("no rule, and family " + quote(e.family, '\'') + " of " + e.name +
                " has no default");
  }
  RuleSpec spec;
  try {
    spec = parse_rule_spec(rule_text);
  } catch (const Error& error) {
    reader.fail(error.what(), reader.find("rule"));
  }
  if (spec.shape) {
    reader.fail("rule " + quote(rule_text, '\'') +
                    " has a bounded grid: give shape and boundary instead",
                reader.find("rule"));
  }
  run.rule = spec.rule;
  if (to_string(run.rule.topology) != e.family) {
    reader.fail("rule " + run.rule.to_string() + " is a " + to_string(run.rule.topology) +
                    " rule, " + e.name + " is a " + e.family + " experiment",
                reader.find("rule"));
  }
  if (auto boundary = reader.string("boundary")) {
    try {
      run.boundary = parse_boundary(*boundary);
    } catch (const Error& error) {
      reader.fail(error.what(), reader.find("boundary"));
    }
  }
}

/// The run's shapes, each of as many sizes as the experiment's family has dimensions.
void read_shapes(const RunReader& reader, const Experiment& e, SweepRun& run) {
  const auto shapes = reader.strings("shape", true);
  if (!shapes) reader.fail("no shape");
  const std::size_t sizes = e.family == "3d" ? 3 : 2;
  for (const auto& text : *shapes) {
    try {
      if (count_sizes(text) != sizes) {
        throw Error("shape " + quote(text, '\'') + ": a " + e.family + " grid is " +
                    (sizes == 3 ? "WxHxD" : "WxH"));
      }
      run.shapes.push_back(parse_shape(text));
    } catch (const Error& error) {
      reader.fail(error.what(), reader.find("shape"));
    }
  }
}

/// What starts the run: soups of its densities, or its patterns (placed at its offset).
void read_starts(const RunReader& reader, SweepRun& run) {
  run.densities = reader.densities("density");
  if (const auto patterns = reader.strings("pattern", true)) {
    if (!run.densities.empty()) {
      reader.fail("pattern and density exclude each other: a pattern starts the run, not a soup",
                  reader.find("pattern"));
    }
    run.patterns = *patterns;
  }
  if (const auto offset = reader.string("offset")) {
    if (run.patterns.empty()) reader.fail("offset without a pattern", reader.find("offset"));
    try {
      run.offset = parse_offset(*offset);
    } catch (const Error& error) {
      reader.fail(error.what(), reader.find("offset"));
    }
  }
}

/// Generations, repetitions, warmup, the time limit and the stopping rule.
void read_measurement(const RunReader& reader, SweepRun& run) {
  const auto generations = reader.integer("generations", 1);
  if (!generations) reader.fail("no generations");
  run.generations = static_cast<std::uint64_t>(*generations);
  run.repetitions = static_cast<int>(std::min<std::int64_t>(
      reader.integer("repetitions", 1).value_or(run.repetitions), 1'000'000));
  run.warmup = static_cast<int>(
      std::min<std::int64_t>(reader.integer("warmup", 0).value_or(run.warmup), 1'000'000));
  run.time_limit_s = reader.seconds("time_limit_s").value_or(run.time_limit_s);
  run.max_repetitions = static_cast<int>(std::min<std::int64_t>(
      reader.integer("max_repetitions", 1).value_or(std::max(run.max_repetitions, run.repetitions)),
      1'000'000));
  if (run.max_repetitions < run.repetitions) {
    reader.fail("max_repetitions " + std::to_string(run.max_repetitions) +
                    " is below repetitions " + std::to_string(run.repetitions),
                reader.find("max_repetitions"));
  }
  run.target_rel_ci = reader.fraction("target_rel_ci").value_or(run.target_rel_ci);
  run.timing_budget_s = reader.seconds("timing_budget_s").value_or(run.timing_budget_s);
}

/// One parameter's values (a value or a list of strings or integers), each checked against
/// the experiment's axes as the experiment checks it, before anything runs.
std::vector<std::string> read_param(const RunReader& reader, const Experiment& e,
                                    const std::string& name, const toml::node& node) {
  std::vector<std::string> values;
  const auto add = [&](const toml::node& value) {
    if (value.is_string()) {
      values.push_back(value.as_string()->get());
    } else if (value.is_integer()) {
      values.push_back(std::to_string(value.as_integer()->get()));
    } else {
      reader.fail("parameter " + quote(name, '\'') + ": values must be strings or integers, not " +
                      type_name(value),
                  &value);
    }
  };
  if (const toml::array* array = node.as_array()) {
    if (array->empty()) reader.fail("parameter " + quote(name, '\'') + " has an empty list", &node);
    for (const toml::node& item : *array)
      add(item);
  } else {
    add(node);
  }
  for (const auto& value : values) {
    try {
      resolve_params(e.name, e.axes, {{name, value}});
    } catch (const Error& error) {
      reader.fail(error.what(), &node);
    }
  }
  return values;
}

/// Reads run #`index`; `counted`: the configurations of the file's runs before it, to which
/// it adds its own, refused before any value is read when they pass kMaxConfigurations.
SweepRun read_run(const toml::table& table, const toml::table* defaults, const std::string& file,
                  int index, const Catalog& catalog, const Experiment* owner,
                  std::uint64_t& counted) {
  SweepRun run;
  run.file = file;
  run.index = index;
  run.line = line_of(table);
  const RunReader reader(table, defaults, run);
  reader.check_keys();
  run.configurations = reader.configurations();
  counted += run.configurations;
  if (counted > kMaxConfigurations) reader.fail(too_many_configurations("the file"));

  // Which experiment, first: the rest is checked against its description.
  const Experiment& e = experiment_of(reader, catalog, owner);
  run.experiment = e.name;
  if (auto sweeps = reader.strings("sweeps", false)) {
    run.sweeps = std::move(*sweeps);
  } else if (owner != nullptr) {
    reader.fail("no sweeps (the named sweeps that include this run, e.g. sweeps = [\"cpu\"])");
  }
  read_rule(reader, e, run);
  read_shapes(reader, e, run);
  read_starts(reader, run);
  read_measurement(reader, run);
  for (const auto& [name, node] : reader.params())
    run.params.emplace_back(name, read_param(reader, e, name, *node));
  read_ties(reader, run);
  return run;
}

/// Every experiment's own sweep file, read once.
class OwnSweeps {
public:
  explicit OwnSweeps(const Catalog& catalog) : catalog_(catalog) {}
  const std::vector<SweepRun>& runs() {
    if (!read_) {
      for (const auto& e : catalog_.experiments) {
        std::error_code error;
        if (!fs::exists(e.sweep_file(), error)) continue;
        auto runs = read_sweep_file(e.sweep_file(), catalog_, &e);
        runs_.insert(runs_.end(), runs.begin(), runs.end());
      }
      read_ = true;
    }
    return runs_;
  }

private:
  const Catalog& catalog_;
  std::vector<SweepRun> runs_;
  bool read_ = false;
};

/// Every combination of a run's parameter values, the last parameter's values varying
/// fastest (an odometer over the lists).
std::vector<std::map<std::string, std::string>> parameter_combinations(const SweepRun& run) {
  std::vector<std::size_t> digit(run.params.size(), 0);
  std::vector<std::map<std::string, std::string>> combinations;
  for (bool more = true; more;) {
    std::map<std::string, std::string> params;
    for (std::size_t i = 0; i < run.params.size(); ++i)
      params.emplace(run.params[i].first, run.params[i].second[digit[i]]);
    combinations.push_back(std::move(params));
    more = false;
    for (std::size_t i = run.params.size(); i-- > 0;) {
      if (++digit[i] < run.params[i].second.size()) {
        more = true;
        break;
      }
      digit[i] = 0;
    }
  }
  return combinations;
}

/// What starts a run's configurations: a soup of each density (none given: the family's),
/// or each pattern, never both.
struct Start {
  std::optional<double> density;
  std::optional<std::string> pattern;
};

std::vector<Start> starts_of(const SweepRun& run) {
  std::vector<Start> starts;
  for (const auto& pattern : run.patterns)
    starts.push_back({.density = std::nullopt, .pattern = pattern});
  for (const double density : run.densities)
    starts.push_back({.density = density, .pattern = std::nullopt});
  if (starts.empty()) starts.emplace_back();
  return starts;
}

SweepConfiguration configuration_of(const SweepRun& run, const Experiment& e, const Shape& shape,
                                    const Start& start, std::map<std::string, std::string> params) {
  SweepConfiguration c;
  c.experiment = e.name;
  c.problem = Problem{run.rule, shape, run.boundary};
  c.generations = run.generations;
  c.params = std::move(params);
  c.density = start.density;
  c.pattern = start.pattern;
  c.offset = start.pattern ? run.offset : std::nullopt;
  c.stopping = statistics::StoppingRule{.min_repetitions = run.repetitions,
                                        .max_repetitions = run.max_repetitions,
                                        .target_rel_ci = run.target_rel_ci,
                                        .budget_s = run.timing_budget_s};
  c.warmup = run.warmup;
  c.info = &e;
  c.time_limit_s = run.time_limit_s;
  c.ties = run.ties;
  c.origin = run.where();
  return c;
}

/// One configuration reached by a second run: one measurement fills every cell either run
/// ties it to; throws Error if the two disagree on how to measure it.
void merge_into(SweepConfiguration& first, SweepConfiguration again) {
  const statistics::StoppingRule& a = first.stopping;
  const statistics::StoppingRule& b = again.stopping;
  if (a.min_repetitions != b.min_repetitions || first.warmup != again.warmup ||
      a.max_repetitions != b.max_repetitions || a.target_rel_ci != b.target_rel_ci ||
      a.budget_s != b.budget_s) {
    throw Error(again.origin + ": configuration " + again.name() + " is also in " + first.origin +
                " with different repetitions, warmup or stopping rule (repetitions " +
                std::to_string(b.min_repetitions) + ", warmup " + std::to_string(again.warmup) +
                " against " + std::to_string(a.min_repetitions) + ", " +
                std::to_string(first.warmup) + ")");
  }
  for (auto& tie : again.ties) {
    if (std::find(first.ties.begin(), first.ties.end(), tie) == first.ties.end()) {
      first.ties.push_back(std::move(tie));
    }
  }
}

} // namespace

std::string SweepRun::where() const {
  return file + ":" + std::to_string(line) + ": run #" + std::to_string(index);
}

std::vector<SweepRun> read_sweep_file(const fs::path& file, const Catalog& catalog,
                                      const Experiment* owner) {
  const std::string name = file.string();
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (!fs::exists(status)) throw Error("sweep file " + name + " does not exist");
  if (!fs::is_regular_file(status)) throw Error("sweep file " + name + " is not a regular file");
  toml::table document;
  try {
    document = toml::parse_file(name);
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw Error(name + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column) +
                ": " + std::string(e.description()));
  }
  for (auto&& [key, node] : document) {
    if (key.str() != "run" && key.str() != "defaults") {
      throw Error(name + ":" + std::to_string(line_of(node)) + ": unknown key " +
                  quote(key.str(), '\'') + " (a sweep file holds [defaults] and [[run]] tables)");
    }
  }
  const toml::table* defaults = nullptr;
  if (const toml::node* node = document.get("defaults")) {
    defaults = node->as_table();
    if (defaults == nullptr) {
      throw Error(name + ":" + std::to_string(line_of(*node)) +
                  ": 'defaults' must be a table ([defaults])");
    }
    for (auto&& [key, value] : *defaults) {
      const std::string default_key(key.str());
      if (std::find(kDefaultKeys.begin(), kDefaultKeys.end(), default_key) == kDefaultKeys.end()) {
        throw Error(name + ":" + std::to_string(line_of(value)) + ": unknown key " +
                    quote(default_key, '\'') + " in [defaults] (defaults: " + join(kDefaultKeys) +
                    ")");
      }
    }
  }
  std::vector<SweepRun> runs;
  const toml::node* node = document.get("run");
  if (node == nullptr) {
    if (owner != nullptr) return runs;
    throw Error(name + ": no [[run]] in this sweep file");
  }
  const toml::array* array = node->as_array();
  if (array == nullptr || !array->is_array_of_tables()) {
    throw Error(name + ":" + std::to_string(line_of(*node)) +
                ": 'run' must be an array of tables ([[run]])");
  }
  int index = 0;
  std::uint64_t counted = 0;
  for (const toml::node& item : *array) {
    runs.push_back(read_run(*item.as_table(), defaults, name, ++index, catalog, owner, counted));
  }
  return runs;
}

bool names_a_file(const std::string& sweep) {
  std::error_code error;
  return fs::exists(sweep, error) || sweep.find('/') != std::string::npos ||
         (sweep.size() > 5 && sweep.compare(sweep.size() - 5, 5, ".toml") == 0);
}

std::vector<SweepRun> select_runs(const std::vector<std::string>& sweeps, const Catalog& catalog) {
  OwnSweeps own(catalog);
  std::vector<SweepRun> selected;
  std::set<std::pair<std::string, int>> seen;
  const auto take = [&](const SweepRun& run) {
    if (seen.emplace(run.file, run.index).second) selected.push_back(run);
  };
  for (const auto& sweep : sweeps) {
    if (names_a_file(sweep)) {
      for (const auto& run : read_sweep_file(sweep, catalog, nullptr))
        take(run);
      continue;
    }
    std::set<std::string> names;
    bool any = false;
    for (const auto& run : own.runs()) {
      names.insert(run.sweeps.begin(), run.sweeps.end());
      if (std::find(run.sweeps.begin(), run.sweeps.end(), sweep) != run.sweeps.end()) {
        take(run);
        any = true;
      }
    }
    if (!any) {
      throw Error("sweep " + quote(sweep, '\'') +
                  " selects no run (named sweeps of the experiments found: " +
                  join({names.begin(), names.end()}) + ")");
    }
  }
  std::uint64_t configurations = 0;
  for (const auto& run : selected)
    configurations += run.configurations;
  if (configurations > kMaxConfigurations) {
    throw Error(too_many_configurations("the sweeps " + quote(join(sweeps), '\'')));
  }
  return selected;
}

nlohmann::json SweepConfiguration::ties_json() const {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& tie : ties)
    array.push_back({{"table", tie.table}, {"row", tie.row}, {"column", tie.column}});
  return array;
}

std::vector<SweepConfiguration> expand(const std::vector<SweepRun>& runs, const Catalog& catalog) {
  std::vector<SweepConfiguration> configurations;
  std::map<std::string, std::size_t> by_name;
  for (const auto& run : runs) {
    const Experiment* e = catalog.find(run.experiment);
    LIFEBENCH_EXPECTS(e != nullptr, "expand: experiment " + run.experiment + " not found");
    const auto combinations = parameter_combinations(run);
    for (const auto& shape : run.shapes) {
      for (const auto& start : starts_of(run)) {
        for (const auto& params : combinations) {
          SweepConfiguration c = configuration_of(run, *e, shape, start, params);
          const auto [it, inserted] = by_name.emplace(c.name(), configurations.size());
          if (inserted) {
            configurations.push_back(std::move(c));
          } else {
            merge_into(configurations[it->second], std::move(c));
          }
        }
      }
    }
  }
  return configurations;
}

} // namespace lifebench::driver
