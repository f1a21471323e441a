// Writing RLE as Golly does (writepattern.cpp, writerle): runs of b and o, the
// dead cells that end a row left out, empty rows merged into the next "n$",
// lines of at most 70 characters, and an extended "#CXRLE" first line.
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"

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
  RunWriter writer(out);
  std::int64_t rows_ended = 0; // "$"s owed before the next live cell
  for (std::int64_t y = 0; y < shape.height; ++y) {
    const std::uint8_t* row = grid.data() + grid.index(0, y);
    std::int64_t x = 0;
    while (x < shape.width) {
      std::int64_t end = x + 1;
      while (end < shape.width && (row[end] != 0) == (row[x] != 0))
        ++end;
      if (row[x] == 0 && end == shape.width) break;
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

} // namespace lifebench
