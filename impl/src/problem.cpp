// Formatting of the problem model, and the parsers of shapes and boundaries.
#include "lifebench/problem.hpp"

#include "lifebench/error.hpp"
#include "text.hpp"

#include <array>
#include <bit>

namespace lifebench {

int Rule::neighbours() const {
  switch (topology) {
  case Topology::square:
    return 8;
  case Topology::hex:
    return 6;
  case Topology::cube:
    return 26;
  }
  throw Error("unknown topology");
}

namespace {

/// Counts as Golly writes them ("23"), comma-separated once one has two digits; a lone
/// count of two digits takes a trailing comma ("13,"), as "13" reads as 1 and 3.
std::string format_counts(std::uint32_t counts) {
  const bool commas = (counts >> 10U) != 0;
  std::string text;
  for (int n = 0; n < 32; ++n) {
    if (((counts >> n) & 1U) == 0) continue;
    if (commas && !text.empty()) text += ',';
    text += std::to_string(n);
  }
  if (commas && std::has_single_bit(counts)) text += ',';
  return text;
}

} // namespace

// The functions below append piece by piece: `"literal" + std::string` trips
// GCC 12's false -Wrestrict (bug 105651) in optimised builds.

std::string Rule::to_string() const {
  std::string text = "B";
  text += format_counts(birth);
  text += "/S";
  text += format_counts(survive);
  if (topology == Topology::hex) text += "H";
  if (topology == Topology::cube) text += "/3D";
  return text;
}

std::string Shape::to_string() const {
  std::string text = std::to_string(width);
  text += 'x';
  text += std::to_string(height);
  if (depth != 1) {
    text += 'x';
    text += std::to_string(depth);
  }
  return text;
}

std::string Problem::to_string() const {
  std::string text = rule.to_string();
  text += boundary == Boundary::torus ? ":T" : ":P";
  text += std::to_string(shape.width);
  text += ',';
  text += std::to_string(shape.height);
  if (rule.topology == Topology::cube || shape.depth != 1) {
    text += ',';
    text += std::to_string(shape.depth);
  }
  return text;
}

std::optional<std::string> invalid_shape_reason(const Shape& shape) {
  if (shape.width <= 0 || shape.height <= 0 || shape.depth <= 0) {
    return "every size must be positive";
  }
  // Dividing instead of multiplying keeps the test itself from overflowing.
  if (shape.height > max_cells / shape.width ||
      shape.depth > max_cells / (shape.width * shape.height)) {
    return "more than 2^40 cells";
  }
  return std::nullopt;
}

Shape parse_shape(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return Error("shape " + quote(text) + ": " + why);
  };
  const auto parts = detail::split(text, 'x');
  if (parts.size() != 2 && parts.size() != 3) throw fail("expected WxH or WxHxD");
  std::array<std::int64_t, 3> sizes{1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto size = detail::parse_decimal(parts[i]);
    if (!size) throw fail(quote(parts[i]) + " is not a size");
    if (*size > static_cast<std::uint64_t>(max_cells)) throw fail("more than 2^40 cells");
    sizes[i] = static_cast<std::int64_t>(*size);
  }
  const Shape shape{sizes[0], sizes[1], sizes[2]};
  if (auto reason = invalid_shape_reason(shape)) throw fail(*reason);
  return shape;
}

Boundary parse_boundary(std::string_view text) {
  if (text == "torus") return Boundary::torus;
  if (text == "dead") return Boundary::dead;
  throw Error("boundary " + quote(text) + ": expected torus or dead");
}

std::string to_string(Boundary boundary) {
  return boundary == Boundary::torus ? "torus" : "dead";
}

std::string to_string(Topology topology) {
  switch (topology) {
  case Topology::square:
    return "square";
  case Topology::hex:
    return "hex";
  case Topology::cube:
    return "3d";
  }
  throw Error("unknown topology");
}

} // namespace lifebench
