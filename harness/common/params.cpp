#include "lifebench/params.hpp"

#include "lifebench/error.hpp"
#include "lifebench/join.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace lifebench {
namespace {

constexpr std::array<std::pair<AxisRole, const char*>, 4> kRoleNames{{
    {AxisRole::steps_per_launch, "steps_per_launch"},
    {AxisRole::halo_steps, "halo_steps"},
    {AxisRole::gpu_count, "gpu_count"},
    {AxisRole::host_folder, "host_folder"},
}};

} // namespace

std::string to_string(AxisRole role) {
  for (const auto& [each, name] : kRoleNames) {
    if (each == role) return name;
  }
  return {};
}

AxisRole parse_axis_role(const std::string& name) {
  if (name.empty()) return AxisRole::none;
  std::vector<std::string> names;
  for (const auto& [role, each] : kRoleNames) {
    if (name == each) return role;
    names.emplace_back(each);
  }
  throw Error("unknown axis role " + quote(name, '\'') + " (known: " + join(names) + ")");
}

const Axis* axis_with_role(const std::vector<Axis>& axes, AxisRole role) {
  const auto it =
      std::find_if(axes.begin(), axes.end(), [&](const Axis& axis) { return axis.role == role; });
  return it == axes.end() ? nullptr : &*it;
}

const std::string& Params::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw Error("no parameter " + quote(name, '\''));
  return it->second;
}

std::int64_t Params::get_int(const std::string& name) const {
  const std::string& text = get(name);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw Error("parameter " + name + "=" + text + " is not an integer");
  }
  return value;
}

std::int64_t Params::get_bytes(const std::string& name) const {
  const std::string& text = get(name);
  const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
  const std::string unit = text.substr(digits);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  const std::int64_t count = digits == 0 || digits > 13 ? -1 : std::stoll(text.substr(0, digits));
  if (count < 0 || shift < 0 || count > (std::int64_t{1} << 40) >> shift) {
    throw Error("parameter " + name + "=" + text +
                " is not a count of bytes up to 1T with an optional K, M or G");
  }
  return count << shift;
}

std::string Params::to_string() const {
  std::string out;
  for (const auto& [name, value] : values_)
    out += (out.empty() ? "" : ",") + name + "=" + value;
  return out;
}

std::map<std::string, std::string> parse_param_pairs(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> out;
  for (const auto& pair : pairs) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw Error("parameter " + quote(pair, '\'') + " is not of the form name=value");
    }
    if (!out.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second) {
      throw Error("parameter " + quote(pair.substr(0, eq), '\'') + " is given twice");
    }
  }
  return out;
}

Params resolve_params(const std::string& experiment, const std::vector<Axis>& axes,
                      const std::map<std::string, std::string>& given) {
  std::vector<std::string> names;
  names.reserve(axes.size());
  for (const auto& axis : axes)
    names.push_back(axis.name);
  for (const auto& [name, value] : given) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw Error("unknown parameter " + quote(name, '\'') + " for " + experiment +
                  " (its parameters: " + join(names) + ")");
    }
  }
  std::map<std::string, std::string> values;
  for (const auto& axis : axes) {
    const auto it = given.find(axis.name);
    const std::string value = it == given.end() ? axis.default_value : it->second;
    if (!axis.allowed.empty() &&
        std::find(axis.allowed.begin(), axis.allowed.end(), value) == axis.allowed.end()) {
      throw Error("parameter " + quote(axis.name + "=" + value, '\'') + " is not allowed for " +
                  experiment + " (allowed: " + join(axis.allowed) + ")");
    }
    values.emplace(axis.name, value);
  }
  return Params(std::move(values));
}

} // namespace lifebench
