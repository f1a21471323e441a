// The HPCGame 3D format: byte layout, round trips and every malformed file.
#include "lifebench/error.hpp"
#include "lifebench/format3d.hpp"
#include "lifebench/soup.hpp"

#include <gtest/gtest.h>
#include <sstream>

namespace lifebench {
namespace {

std::string le64(std::uint64_t value) {
  std::string bytes;
  for (int i = 0; i < 8; ++i, value >>= 8U)
    bytes += static_cast<char>(value & 0xffU);
  return bytes;
}

/// The message of the Error that reading `bytes` throws.
std::string read_error(const std::string& bytes) {
  std::istringstream in(bytes);
  try {
    read_3d(in, "cube.dat");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(Format3d, ByteLayout) {
  Grid grid(Shape{4, 4, 4});
  grid.set(1, 2, 3, 1); // canonical (x, y, z): the file's (x, y, z) = (3, 2, 1)
  std::ostringstream out;
  write_3d(out, grid, 0x0102030405060708ULL);
  const std::string bytes = out.str();
  ASSERT_EQ(bytes.size(), 16U + 64U);
  EXPECT_EQ(bytes.substr(0, 8), le64(4));
  EXPECT_EQ(bytes.substr(8, 8), le64(0x0102030405060708ULL));
  for (std::size_t i = 16; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], i == 16 + 3 * 16 + 2 * 4 + 1 ? 1 : 0) << i;
  }
}

TEST(Format3d, RoundTripKeepsTheGeneration) {
  const Grid grid = make_soup(SoupSpec{Shape{16, 16, 16}, 0.2, 5});
  std::stringstream file;
  write_3d(file, grid, 987654321);
  const Universe3D back = read_3d(file, "cube.dat");
  EXPECT_EQ(back.cells, grid);
  EXPECT_EQ(back.generation, 987654321U);
}

TEST(Format3d, SmallestCube) {
  std::istringstream in(le64(1) + le64(0) + "\x01");
  const Universe3D one = read_3d(in, "one.dat");
  EXPECT_EQ(one.cells.shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(one.cells.population(), 1);
}

TEST(Format3d, Errors) {
  EXPECT_EQ(read_error("short"),
            "cube.dat: short header: expected 16 bytes (uint64 M, uint64 T), got 5");
  EXPECT_EQ(read_error(le64(4)),
            "cube.dat: short header: expected 16 bytes (uint64 M, uint64 T), got 8");
  EXPECT_EQ(read_error(le64(0) + le64(0)), "cube.dat: M is 0");
  EXPECT_EQ(read_error(le64(std::uint64_t{1} << 21U) + le64(0)),
            "cube.dat: M = 2097152 is too large (more than 2^40 cells)");
  EXPECT_EQ(read_error(le64(10322) + le64(0)),
            "cube.dat: M = 10322 is too large (more than 2^40 cells)");
  EXPECT_EQ(read_error(le64(~std::uint64_t{0}) + le64(0)),
            "cube.dat: M = 18446744073709551615 is too large (more than 2^40 cells)");
  EXPECT_EQ(read_error(le64(4) + le64(0) + std::string(10, '\0')),
            "cube.dat: truncated: M = 4 needs 64 payload bytes, got 10");
  EXPECT_EQ(read_error(le64(2) + le64(0) + std::string(9, '\0')),
            "cube.dat: too long: M = 2 needs 8 payload bytes, got 9 (is M right?)");
  std::string payload(8, '\0');
  payload[5] = 2;
  EXPECT_EQ(read_error(le64(2) + le64(0) + payload),
            "cube.dat: byte 21 is 2: cells must be 0 or 1");
}

/// A stream that cannot seek, like a pipe: sizes are only found by reading.
class PipeBuffer : public std::streambuf {
public:
  explicit PipeBuffer(std::string bytes) : bytes_(std::move(bytes)) {
    setg(bytes_.data(), bytes_.data(), bytes_.data() + bytes_.size());
  }

private:
  std::string bytes_;
};

TEST(Format3d, UnseekableStreams) {
  const Grid grid = make_soup(SoupSpec{Shape{4, 4, 4}, 0.5, 1});
  std::ostringstream out;
  write_3d(out, grid, 3);
  PipeBuffer whole(out.str());
  std::istream whole_in(&whole);
  EXPECT_EQ(read_3d(whole_in, "pipe").cells, grid);

  PipeBuffer cut(out.str().substr(0, 40));
  std::istream cut_in(&cut);
  try {
    read_3d(cut_in, "pipe");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "pipe: truncated: M = 4 needs 64 payload bytes, got 24");
  }
  PipeBuffer longer(out.str() + "x");
  std::istream longer_in(&longer);
  EXPECT_THROW(read_3d(longer_in, "pipe"), Error);
}

TEST(Format3d, WritesCubesOnly) {
  std::ostringstream out;
  EXPECT_THROW(write_3d(out, Grid(Shape{4, 4, 2}), 0), Error);
  EXPECT_THROW(write_3d(out, Grid(Shape{4, 4, 1}), 0), Error);
  EXPECT_TRUE(out.str().empty());
}

} // namespace
} // namespace lifebench
