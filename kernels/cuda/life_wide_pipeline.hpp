// The arithmetic of a pipelined launch (launch=pipelined, wavefront_pipelined of
// life_wide_wavefront.cuh): where each pass's tiles start, and which counts of rows written a
// tile waits for. Host and device, so that a host test replays the schedule.
#pragma once

#include "common/host_device.hpp"
#include "cuda/life_wide_rows.hpp"

#include <cstdint>

namespace lifebench::cuda::life_wide::pipeline {

/// Rows a tile writes between two waits, and between two counts of the rows it has written.
constexpr unsigned kRun = 32;

/// The first row that pass `pass`'s tile `tile` writes, on a torus of `height` rows cut into
/// tiles of `rows`, `steps` generations a pass: `steps` rows below the same tile's rows of the
/// pass before. Its j-th row loaded (first - steps + j) is then the j-th row the same tile wrote
/// in the pass before, or, from j = rows on, the (j - rows)-th of the next tile, which that tile
/// wrote first.
LIFEBENCH_HOST_DEVICE unsigned first_row(unsigned pass, unsigned tile, unsigned rows,
                                         unsigned height, int steps) {
  return static_cast<unsigned>((static_cast<std::uint64_t>(tile) * rows +
                                static_cast<std::uint64_t>(pass) * static_cast<unsigned>(steps)) %
                               height);
}

/// A tile's count of rows written, over all its passes: `written` rows into pass `pass`.
LIFEBENCH_HOST_DEVICE std::uint64_t count(unsigned pass, unsigned rows, unsigned written) {
  return static_cast<std::uint64_t>(pass) * rows + written;
}

/// The counts of the pass before (pass at least 1) that a tile waits for before loads that end
/// with its end-th row loaded: its own tile's, and the next tile's (0: none).
struct LoadsNeed {
  std::uint64_t own;
  std::uint64_t next;
};

LIFEBENCH_HOST_DEVICE LoadsNeed loads_need(unsigned pass, unsigned rows, unsigned end) {
  return {count(pass - 1, rows, end < rows ? end : rows),
          end > rows ? count(pass - 1, rows, end - rows < rows ? end - rows : rows) : 0};
}

/// The slot of pass `pass`'s counts: passes of one tile run at once, each keeping its count in
/// one of kPipelineSlots in turn.
LIFEBENCH_HOST_DEVICE unsigned slot_of(unsigned pass) {
  return pass % kPipelineSlots;
}

/// Before pass `pass` takes the slot of the pass kPipelineSlots before it, the tiles that read
/// that one's counts, those of the pass after it (the same tile and the one above, whose last
/// rows read this one's first), must be done: that pass, `reader`, and the count that says so
/// (0: no slot taken yet).
struct SlotNeed {
  unsigned reader;
  std::uint64_t done;
};

LIFEBENCH_HOST_DEVICE SlotNeed slot_need(unsigned pass, unsigned rows) {
  if (pass < kPipelineSlots) return {0, 0}; // its slot not yet used
  const unsigned reader = pass + 1 - kPipelineSlots;
  return {reader, count(reader, rows, rows)};
}

/// Lanes of a waiting warp that each load one count: lanes 0 to 2 the first tile's, in the groups
/// before, its own and after; lanes 3 to 5 the second tile's, likewise.
constexpr unsigned kWaitingLanes = 6;

/// The group whose count lane `lane` loads, for a tile of group `group` among `groups`.
LIFEBENCH_HOST_DEVICE unsigned waited_group(unsigned lane, unsigned group, unsigned groups) {
  return (group + groups + lane % 3 - 1) % groups;
}

/// Whether lane `lane` loads the first tile's count (else the second's, or none from
/// kWaitingLanes on).
LIFEBENCH_HOST_DEVICE bool waits_on_first(unsigned lane) {
  return lane < 3;
}

} // namespace lifebench::cuda::life_wide::pipeline
