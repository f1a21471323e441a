// OpenCL C sources embedded into an experiment's executable at build time by
// lifebench_embed_opencl (cmake/LifebenchOpenCL.cmake): the experiment's own .cl
// files and the shared kernels/opencl/*.cl, looked up by file name, so that an
// executable runs from any directory with no source tree beside it.
#pragma once

#include "lifebench/error.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

namespace lifebench::opencl {

struct EmbeddedSource {
  std::string_view name; ///< file name without directory, e.g. "basic.cl"
  std::string_view text;
};

/// Every embedded file; defined in the code lifebench_embed_opencl generates.
std::span<const EmbeddedSource> embedded_sources();

namespace detail {

inline const EmbeddedSource* find_source(std::string_view name) {
  for (const auto& source : embedded_sources()) {
    if (source.name == name) return &source;
  }
  return nullptr;
}

/// `#include "x.cl"` naming an embedded file -> that file's name; otherwise empty.
inline std::string_view included_name(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos || line[first] != '#') return {};
  line.remove_prefix(first + 1);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  if (!line.starts_with("include")) return {};
  const auto open = line.find('"');
  const auto close = open == std::string_view::npos ? open : line.find('"', open + 1);
  if (close == std::string_view::npos) return {};
  const std::string_view name = line.substr(open + 1, close - open - 1);
  return find_source(name) != nullptr ? name : std::string_view{};
}

inline void expand(const EmbeddedSource& source, int depth, std::string& out) {
  if (depth > 16) {
    throw Error("OpenCL source " + std::string(source.name) + ": #include nested too deeply");
  }
  std::string_view rest = source.text;
  int line_number = 0;
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    ++line_number;
    const std::string_view included = included_name(line);
    if (included.empty()) {
      out.append(line);
      out += '\n';
      continue;
    }
    // #line keeps the compiler's messages pointing at the right file and line.
    out += "#line 1 \"" + std::string(included) + "\"\n";
    expand(*find_source(included), depth + 1, out);
    out += "#line " + std::to_string(line_number + 1) + " \"" + std::string(source.name) + "\"\n";
  }
}

} // namespace detail

/// The text of the embedded file `name`, with each `#include "x.cl"` of another
/// embedded file replaced by that file's text; throws Error naming what exists.
inline std::string source(std::string_view name) {
  const EmbeddedSource* found = detail::find_source(name);
  if (found == nullptr) {
    std::string names;
    for (const auto& source : embedded_sources()) {
      names += (names.empty() ? "" : ", ") + std::string(source.name);
    }
    throw Error("no embedded OpenCL source named '" + std::string(name) +
                "' (embedded: " + (names.empty() ? "none" : names) + ")");
  }
  std::string text = "#line 1 \"" + std::string(found->name) + "\"\n";
  detail::expand(*found, 0, text);
  return text;
}

} // namespace lifebench::opencl
