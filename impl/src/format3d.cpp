// The HPCGame 3D format. The payload is read straight into the grid's storage:
// at M = 1024 it is 1 GiB, and a second copy would double the peak memory.
#include "lifebench/format3d.hpp"

#include "lifebench/error.hpp"

#include <algorithm>
#include <array>

namespace lifebench {
namespace {

constexpr std::int64_t header_bytes = 16;

std::uint64_t decode_le64(const std::array<unsigned char, 8>& bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;)
    value = (value << 8U) | bytes[i];
  return value;
}

void encode_le64(std::ostream& out, std::uint64_t value) {
  std::array<char, 8> bytes{};
  for (auto& byte : bytes) {
    byte = static_cast<char>(value & 0xffU);
    value >>= 8U;
  }
  out.write(bytes.data(), bytes.size());
}

/// Bytes left in a seekable stream, or -1 where it cannot tell.
std::int64_t bytes_left(std::istream& in) {
  const auto here = in.tellg();
  if (here == std::streampos(-1)) return -1;
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.seekg(here);
  if (end == std::streampos(-1) || !in) {
    in.clear();
    in.seekg(here);
    return -1;
  }
  return static_cast<std::int64_t>(end - here);
}

} // namespace

Universe3D read_3d(std::istream& in, const std::string& source) {
  const auto fail = [&](const std::string& why) { return Error(source + ": " + why); };
  std::array<unsigned char, 8> m_bytes{};
  std::array<unsigned char, 8> t_bytes{};
  in.read(reinterpret_cast<char*>(m_bytes.data()), m_bytes.size());
  std::int64_t got = in.gcount();
  in.read(reinterpret_cast<char*>(t_bytes.data()), t_bytes.size());
  got += in.gcount();
  if (got < header_bytes) {
    throw fail("short header: expected 16 bytes (uint64 M, uint64 T), got " + std::to_string(got));
  }
  const std::uint64_t m = decode_le64(m_bytes);
  if (m == 0) throw fail("M is 0");
  // Below 2^21 the cube fits in 63 bits, so it is computed exactly.
  if (m >= (std::uint64_t{1} << 21U) || m * m * m > static_cast<std::uint64_t>(max_cells)) {
    throw fail("M = " + std::to_string(m) + " is too large (more than 2^40 cells)");
  }
  const auto side = static_cast<std::int64_t>(m);
  const std::int64_t payload = side * side * side;
  const std::string sizes =
      "M = " + std::to_string(m) + " needs " + std::to_string(payload) + " payload bytes, ";

  // Where the stream can tell, a wrong size is reported before anything is allocated.
  const std::int64_t left = bytes_left(in);
  if (left >= 0 && left < payload)
    throw fail("truncated: " + sizes + "got " + std::to_string(left));
  if (left > payload) {
    throw fail("too long: " + sizes + "got " + std::to_string(left) + " (is M right?)");
  }

  Universe3D universe{Grid(Shape{side, side, side}), decode_le64(t_bytes)};
  auto* cells = universe.cells.data();
  in.read(reinterpret_cast<char*>(cells), payload);
  if (in.gcount() < payload) {
    throw fail("truncated: " + sizes + "got " + std::to_string(in.gcount()));
  }
  if (in.peek() != std::istream::traits_type::eof()) throw fail("too long: " + sizes + "got more");

  const auto* bad = std::find_if(cells, cells + payload, [](std::uint8_t c) { return c > 1; });
  if (bad != cells + payload) {
    throw fail("byte " + std::to_string(header_bytes + (bad - cells)) + " is " +
               std::to_string(*bad) + ": cells must be 0 or 1");
  }
  return universe;
}

void write_3d(std::ostream& out, const Grid& cells, std::uint64_t generation) {
  const Shape& shape = cells.shape();
  if (shape.width != shape.height || shape.width != shape.depth || shape.width <= 0) {
    throw Error("the 3D format holds cubes only, not a " + shape.to_string() + " grid");
  }
  encode_le64(out, static_cast<std::uint64_t>(shape.width));
  encode_le64(out, generation);
  out.write(reinterpret_cast<const char*>(cells.data()), shape.cells());
}

} // namespace lifebench
