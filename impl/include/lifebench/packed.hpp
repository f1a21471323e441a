// Bit-packed rows: the layout most bit-parallel experiments start from. Row y of
// plane z is words_per_row(width) consecutive words; bit b of word i holds cell
// x = i * bits + b (least significant bit = leftmost cell). Bits past the width
// are zero after pack_rows() and ignored by unpack_rows().
#pragma once

#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace lifebench {

template <class Word> inline constexpr int word_bits = static_cast<int>(sizeof(Word) * CHAR_BIT);

/// Words one row of `width` cells takes.
template <class Word> constexpr std::int64_t words_per_row(std::int64_t width) {
  return (width + word_bits<Word> - 1) / word_bits<Word>;
}

/// The grid's rows (all planes, z then y) packed into words.
template <class Word> std::vector<Word> pack_rows(const Grid& grid) {
  static_assert(std::is_unsigned_v<Word>);
  const Shape& shape = grid.shape();
  const std::int64_t row_words = words_per_row<Word>(shape.width);
  const std::int64_t rows = shape.height * shape.depth;
  std::vector<Word> words(static_cast<std::size_t>(rows * row_words), Word{0});
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::uint8_t* cells = grid.data() + r * shape.width;
    Word* out = words.data() + r * row_words;
    for (std::int64_t x = 0; x < shape.width; ++x) {
      out[x / word_bits<Word>] |= static_cast<Word>(Word{cells[x] != 0U} << (x % word_bits<Word>));
    }
  }
  return words;
}

/// Fills `grid` (its shape gives the layout) from rows packed as pack_rows() packs them.
template <class Word> void unpack_rows(std::span<const Word> words, Grid& grid) {
  static_assert(std::is_unsigned_v<Word>);
  const Shape& shape = grid.shape();
  const std::int64_t row_words = words_per_row<Word>(shape.width);
  const std::int64_t rows = shape.height * shape.depth;
  if (static_cast<std::int64_t>(words.size()) != rows * row_words) {
    throw Error("unpack_rows: " + std::to_string(words.size()) + " words for a " +
                shape.to_string() + " grid, expected " + std::to_string(rows * row_words));
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    const Word* in = words.data() + r * row_words;
    std::uint8_t* cells = grid.data() + r * shape.width;
    for (std::int64_t x = 0; x < shape.width; ++x) {
      cells[x] = static_cast<std::uint8_t>((in[x / word_bits<Word>] >> (x % word_bits<Word>)) & 1U);
    }
  }
}

} // namespace lifebench
