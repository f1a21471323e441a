// Universe files (.lbu): any bytes open or are refused with lifebench::Error, and a file
// that opens is exactly as long as its header says, reads in bands of rows and in blocks,
// and reads whole into a grid of its problem.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/universe.hpp"

#include <algorithm>
#include <vector>

namespace {

using namespace lifebench;

/// Rows in bands of a few: the band reader's edges at other rows than the file's.
void read_in_bands(UniverseReader& reader) {
  const UniverseHeader& header = reader.header();
  const std::int64_t words = header.words_per_row();
  constexpr std::int64_t kBand = 3;
  std::vector<std::uint64_t> band;
  for (std::int64_t y = 0; y < header.problem.shape.height; y += kBand) {
    const std::int64_t rows = std::min(kBand, header.problem.shape.height - y);
    band.resize(static_cast<std::size_t>(rows * words));
    reader.read_rows(y, rows, band);
  }
  // A block of the last words of the last two rows, and one outside the universe.
  const std::int64_t rows = std::min<std::int64_t>(2, header.problem.shape.height);
  const std::int64_t x = words / 2;
  std::vector<std::uint64_t> block(static_cast<std::size_t>(rows * (words - x)));
  reader.read_block(header.problem.shape.height - rows, rows, x, words - x, block);
  bool refused = false;
  try {
    reader.read_block(header.problem.shape.height, 1, 0, words, block);
  } catch (const Error&) {
    refused = true;
  }
  fuzz::require(refused, "a block past the last row was read");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::InputFile file(".lbu");
  const auto& path = file.holding(fuzz::text_of(data, size));
  try {
    UniverseReader reader(path);
    const UniverseHeader header = reader.header();
    fuzz::require(header.file_bytes() == static_cast<std::int64_t>(size),
                  "a file opened whose size is not its header's");
    read_in_bands(reader);
    const State state = read_state(path, std::nullopt);
    fuzz::require(state.problem == header.problem && state.generation == header.generation &&
                      state.grid.shape() == header.problem.shape,
                  "the whole universe reads as another problem or generation");
    std::vector<std::uint64_t> words(
        static_cast<std::size_t>(header.problem.shape.height * header.words_per_row()));
    reader.read_rows(0, header.problem.shape.height, words);
    fuzz::require(pack_rows<std::uint64_t>(state.grid) == words,
                  "the grid read whole differs from the rows");
  } catch (const Error&) {
    // Refused, as it should be, with one message.
  }
  return 0;
}
