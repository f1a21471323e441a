// Ours, beyond seed 003: a pass of T generations over bands of whole rows with no
// halo. Band i's rows at generation t are [iH + t, (i+1)H + t): a window that moves down
// one row per generation, a parallelogram in space-time. To advance g generations it
// needs the 2g rows below it at generation t, which the band under it, advanced before
// it, left in a handoff buffer (one slot of 2g rows per launch), and it leaves its own
// first 2g rows in the same slot for the band above it: the bands go from the last up.
// The last band takes them from a prelude: the universe's first 2T rows advanced as a
// trapezoid that shrinks from both ends, the only cells computed twice (about T/N of the
// pass). After T generations band i holds rows [iH + T, (i+1)H + T) of the new universe,
// exact: no band is extended and T is bounded by the handoff buffer (2T rows), not by
// the band's height.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace lifebench::outofcore_bands {

/// The bands of one pass: `count` bands of a universe of `height` rows of `row_words`
/// words, advanced `steps` generations by launches of at most `max_launch` generations.
struct Bands {
  std::int64_t row_words = 1;
  std::int64_t height = 0;
  int count = 1;
  int steps = 0;      ///< T: generations of the pass
  int max_launch = 1; ///< most generations one launch does

  /// Why these bands cannot run, or nothing.
  [[nodiscard]] std::optional<std::string> unsupported() const {
    if (height % count != 0) {
      return "subuniverses=1x" + std::to_string(count) + " must divide the universe's " +
             std::to_string(height) + " rows evenly";
    }
    if (band_rows() < 2 * std::int64_t{max_launch}) {
      return "bands of " + std::to_string(band_rows()) + " rows are shorter than the " +
             std::to_string(2 * max_launch) +
             " rows a launch hands to the next band: use fewer subuniverses";
    }
    return std::nullopt;
  }

  [[nodiscard]] std::int64_t band_rows() const { return height / count; }
  /// Rows of a band's launches: the band and the rows it takes below it (advance_band()).
  [[nodiscard]] std::int64_t launch_rows() const {
    return band_rows() + 2 * std::int64_t{max_launch};
  }
  [[nodiscard]] std::int64_t prelude_rows() const { return 2 * std::int64_t{steps}; }
  /// The prelude is read in chunks no taller than a band (a host slot holds a band).
  [[nodiscard]] std::int64_t chunk_rows() const { return std::min(band_rows(), prelude_rows()); }
  [[nodiscard]] int chunks() const {
    return static_cast<int>((prelude_rows() + chunk_rows() - 1) / chunk_rows());
  }
  /// Items of the pass: the prelude's chunks, then the bands.
  [[nodiscard]] int items() const { return chunks() + count; }
  [[nodiscard]] bool is_chunk(int k) const { return k < chunks(); }

  /// Rows of each device buffer: the prelude, or a band with room to move down T rows
  /// and take 2g rows below it at generation T - g.
  [[nodiscard]] std::int64_t buffer_rows() const {
    return std::max(prelude_rows(), band_rows() + steps + max_launch);
  }
  [[nodiscard]] std::int64_t handoff_rows() const { return prelude_rows(); }
  /// Words of a host slot: a band, or a chunk of the prelude.
  [[nodiscard]] std::int64_t slot_words() const { return band_rows() * row_words; }
  /// Words on the device: `sets` sets of two buffers (with two, a band's copies overlap the
  /// next band's kernels) and the handoff.
  [[nodiscard]] std::int64_t device_words(int sets) const {
    return (2 * std::int64_t{sets} * buffer_rows() + handoff_rows()) * row_words;
  }

  /// The band item k advances: the last first.
  [[nodiscard]] int band_of(int k) const { return count - 1 - (k - chunks()); }
  /// Item k's first row in the universe and its rows.
  [[nodiscard]] std::int64_t first_input_row(int k) const {
    return is_chunk(k) ? k * chunk_rows() : band_of(k) * band_rows();
  }
  [[nodiscard]] std::int64_t input_rows(int k) const {
    return is_chunk(k) ? std::min(chunk_rows(), prelude_rows() - k * chunk_rows()) : band_rows();
  }
  /// Where item k goes in the device buffer: a band at the top.
  [[nodiscard]] std::int64_t input_buffer_row(int k) const {
    return is_chunk(k) ? k * chunk_rows() : 0;
  }
  /// Band item k's first row of the new universe (may be past the last: wrap it).
  [[nodiscard]] std::int64_t first_output_row(int k) const { return first_input_row(k) + steps; }
  /// Where a band is in its buffer after the pass: moved down T rows.
  [[nodiscard]] std::int64_t output_buffer_row() const { return steps; }
};

// The operations of a pass on a device, called in order (they run in order):
//   to_handoff(buffer_row, handoff_row, rows): rows of the current buffer to the handoff;
//   from_handoff(handoff_row, buffer_row, rows): rows of the handoff to the current buffer;
//   step(first_row, rows, generations): the buffer's rows [first_row, first_row + rows)
//     advanced as a torus of their own into the other buffer, which becomes current.
// `launches` are the generations of each launch, summing to the pass's steps.

/// The prelude, in the current buffer's rows [0, 2T) (universe rows [0, 2T)): the
/// handoff slot of each launch, the rows below the last band at that generation.
template <class Operations>
void advance_prelude(const Bands& b, std::span<const int> launches, Operations& ops) {
  const std::int64_t last = b.prelude_rows();
  std::int64_t t = 0;
  for (const int g : launches) {
    // Rows [t, last - t) are exact at generation t: wrong cells creep in from both ends.
    ops.to_handoff(t, 2 * t, 2 * std::int64_t{g});     // the rows the last band needs below it
    if (t + g < b.steps) ops.step(t, last - 2 * t, g); // the last one's rows are handed on
    t += g;
  }
}

/// A band, in the current buffer's rows [0, H): takes the rows below it from the handoff
/// and leaves its own first rows in their place, launch by launch, moving down; ends in
/// rows [output_buffer_row(), output_buffer_row() + H).
template <class Operations>
void advance_band(const Bands& b, std::span<const int> launches, Operations& ops) {
  const std::int64_t rows = b.band_rows();
  std::int64_t t = 0; // the band is in rows [t, t + H) at generation t
  for (const int g : launches) {
    const std::int64_t below = 2 * std::int64_t{g};
    ops.from_handoff(2 * t, t + rows, below);
    ops.to_handoff(t, 2 * t, below);
    ops.step(t, rows + below, g); // exact: rows [t + g, t + rows + g)
    t += g;
  }
}

} // namespace lifebench::outofcore_bands
