// Writing RLE as Golly does (writepattern.cpp, writerle): runs of b and o, the
// dead cells that end a row left out, empty rows merged into the next "n$",
// lines of at most 70 characters, and an extended "#CXRLE" first line. A bounded
// grid is written whole; Golly's unbounded plane as the box of its live cells.
#include "lifebench/error.hpp"
#include "lifebench/plane.hpp"
#include "lifebench/rle.hpp"

#include <algorithm>
#include <iterator>
#include <string>

namespace lifebench {
namespace {

/// Writes runs, breaking the line before a run that would pass 70 characters.
class RunWriter {
public:
  explicit RunWriter(std::ostream& out) : out_(out) {}

  void run(std::int64_t count, char symbol) {
    std::string token = count > 1 ? std::to_string(count) : std::string();
    token += symbol;
    if (line_length_ + token.size() > 70) {
      out_ << '\n';
      line_length_ = 0;
    }
    out_ << token;
    line_length_ += token.size();
  }

private:
  std::ostream& out_;
  std::size_t line_length_ = 0;
};

/// The runs of the `width` x `height` cells from (left, top) of a grid, then "!".
void write_runs(std::ostream& out, const Grid& grid, std::int64_t left, std::int64_t top,
                std::int64_t width, std::int64_t height) {
  RunWriter writer(out);
  std::int64_t rows_ended = 0; // "$"s owed before the next live cell
  for (std::int64_t y = top; y < top + height; ++y) {
    const std::uint8_t* row = grid.data() + grid.index(left, y);
    std::int64_t x = 0;
    while (x < width) {
      std::int64_t end = x + 1;
      while (end < width && (row[end] != 0) == (row[x] != 0))
        ++end;
      if (row[x] == 0 && end == width) break;
      if (rows_ended > 0) writer.run(rows_ended, '$');
      rows_ended = 0;
      writer.run(end - x, row[x] != 0 ? 'o' : 'b');
      x = end;
    }
    ++rows_ended;
  }
  writer.run(1, '!');
  out << '\n';
}

/// The smallest rectangle of a 2D grid that holds its live cells, counted in the grid's
/// cells (a width of 0 where none lives).
Box live_box_of(const Grid& grid) {
  const Shape& shape = grid.shape();
  std::int64_t left = shape.width;
  std::int64_t right = -1;
  std::int64_t top = -1;
  std::int64_t bottom = -1;
  for (std::int64_t y = 0; y < shape.height; ++y) {
    const std::uint8_t* row = grid.data() + grid.index(0, y);
    const std::uint8_t* end = row + shape.width;
    const std::uint8_t* first = std::find_if(row, end, [](std::uint8_t c) { return c != 0; });
    if (first == end) continue;
    const auto last = std::find_if(std::make_reverse_iterator(end), std::make_reverse_iterator(row),
                                   [](std::uint8_t c) { return c != 0; });
    left = std::min(left, first - row);
    right = std::max<std::int64_t>(right, (last.base() - 1) - row);
    if (top < 0) top = y;
    bottom = y;
  }
  if (top < 0) return {};
  return {left, top, right - left + 1, bottom - top + 1};
}

} // namespace

void write_rle(std::ostream& out, const Grid& grid, const Problem& problem,
               std::uint64_t generation) {
  const Shape& shape = problem.shape;
  if (problem.rule.topology == Topology::cube || shape.depth != 1) {
    throw Error("RLE holds 2D patterns only, not " + problem.to_string());
  }
  if (grid.shape() != shape) {
    throw Error("the grid is " + grid.shape().to_string() + " but problem " + problem.to_string() +
                " is " + shape.to_string());
  }
  // Pos is where Golly puts the grid's top-left cell, so the pattern is read
  // back onto the same cells of the bounded grid.
  out << "#CXRLE Pos=" << -(shape.width / 2) << ',' << -(shape.height / 2) << " Gen=" << generation
      << '\n'
      << "x = " << shape.width << ", y = " << shape.height << ", rule = " << problem.to_string()
      << '\n';
  write_runs(out, grid, 0, 0, shape.width, shape.height);
}

void write_rle_plane(std::ostream& out, const Grid& grid, const Rule& rule, Position origin,
                     std::uint64_t generation) {
  if (rule.topology == Topology::cube || grid.shape().depth != 1) {
    throw Error("RLE holds 2D patterns only, not " + rule.to_string());
  }
  const Box box = live_box_of(grid);
  out << "#CXRLE";
  if (box.width > 0) out << " Pos=" << origin.x + box.left << ',' << origin.y + box.top;
  out << " Gen=" << generation << '\n'
      << "x = " << box.width << ", y = " << box.height << ", rule = " << rule.to_string() << '\n';
  write_runs(out, grid, box.left, box.top, box.width, box.height);
}

} // namespace lifebench
