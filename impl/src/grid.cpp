// The canonical grid, its comparison and its hash.
#include "lifebench/grid.hpp"

#include "lifebench/error.hpp"
#include "mix.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <unistd.h>

namespace lifebench {
std::uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

void require_run_fits_in_memory(const std::string& what, const Shape& shape) {
  const auto cells = static_cast<std::uint64_t>(shape.cells());
  const std::uint64_t bytes = 3 * cells; // at most 3 * 2^40: no overflow
  const std::uint64_t memory = host_memory_bytes();
  if (memory != 0 && bytes > memory) {
    throw Error(
        what + ", " + std::to_string(cells) +
        " cells; a run holds about three copies at a byte a cell: " + std::to_string(bytes >> 20) +
        " MiB, more than this machine's " + std::to_string(memory >> 20) + " MiB");
  }
}

Grid::Grid(Shape shape) : shape_(shape) {
  if (auto reason = invalid_shape_reason(shape)) {
    throw Error("grid " + shape.to_string() + ": " + *reason);
  }
  // Refused up front: with overcommit, a grid larger than the machine would be
  // allocated and then killed while it is filled.
  const auto bytes = static_cast<std::uint64_t>(shape.cells());
  const std::uint64_t memory = host_memory_bytes();
  if (memory != 0 && bytes > memory) {
    throw Error("grid " + shape.to_string() + " needs " + std::to_string(bytes >> 20) +
                " MiB of host memory (one byte per cell); this machine has " +
                std::to_string(memory >> 20) + " MiB");
  }
  try {
    cells_.assign(static_cast<std::size_t>(bytes), 0);
  } catch (const std::bad_alloc&) {
    throw Error("grid " + shape.to_string() + ": cannot allocate " + std::to_string(bytes >> 20) +
                " MiB of host memory");
  }
}

std::int64_t Grid::population() const {
  return static_cast<std::int64_t>(cells_.size()) - std::count(cells_.begin(), cells_.end(), 0);
}

std::string Mismatch::to_string() const {
  std::string cell = "cell (" + std::to_string(x) + ", " + std::to_string(y);
  if (three_dimensional) cell += ", " + std::to_string(z);
  return cell + "): expected " + std::to_string(expected) + ", got " + std::to_string(actual);
}

std::optional<Mismatch> first_difference(const Grid& expected, const Grid& actual) {
  const Shape& shape = expected.shape();
  if (shape != actual.shape()) {
    throw Error("cannot compare a " + shape.to_string() + " grid with a " +
                actual.shape().to_string() + " grid");
  }
  const std::uint8_t* begin = expected.data();
  const std::uint8_t* end = begin + shape.cells();
  const auto [at, other] = std::mismatch(begin, end, actual.data());
  if (at == end) return std::nullopt;
  const std::int64_t i = at - begin;
  const std::int64_t x = i % shape.width;
  const std::int64_t y = (i / shape.width) % shape.height;
  const std::int64_t z = i / (shape.width * shape.height);
  return Mismatch{x, y, z, *at, *other, shape.depth > 1};
}

namespace {

/// Eight cells as one little-endian word, whatever the machine's byte order.
std::uint64_t load_le64(const std::uint8_t* bytes) {
  std::uint64_t word = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&word, bytes, sizeof word);
  } else {
    for (int b = 7; b >= 0; --b)
      word = (word << 8U) | bytes[b];
  }
  return word;
}

/// One word into one lane: the product spreads each input bit upward, the
/// rotation brings the high bits down for the next product.
std::uint64_t absorb(std::uint64_t lane, std::uint64_t word) {
  return std::rotl((lane ^ word) * 0x9fb21c651e98df25, 29) * 0xc2b2ae3d27d4eb4f;
}

} // namespace

// The hash, fixed so that a hash recorded on one machine can be checked on any
// other:
//   seed  = mix64(mix64(mix64(width) ^ height) ^ depth), mix64 being SplitMix64's
//           output function;
//   the cells, in memory order, are read as little-endian 64-bit words, the last
//   one padded with zero bytes; word i goes into lane i mod 4, lane j starting at
//   seed + j * golden_gamma, through absorb() above;
//   hash  = mix64(mix64(mix64(mix64(seed ^ lane0) ^ lane1) ^ lane2) ^ lane3).
// Four independent lanes keep the multiplier busy: a 1 GiB grid hashes in a
// fraction of a second.
std::uint64_t grid_hash(const Grid& grid) {
  using detail::mix64;
  const Shape& shape = grid.shape();
  const std::uint64_t seed = mix64(mix64(mix64(static_cast<std::uint64_t>(shape.width)) ^
                                         static_cast<std::uint64_t>(shape.height)) ^
                                   static_cast<std::uint64_t>(shape.depth));
  return detail::hash_bytes(seed, {grid.data(), static_cast<std::size_t>(shape.cells())});
}

namespace detail {

std::uint64_t hash_bytes(std::uint64_t seed, std::span<const std::uint8_t> bytes) {
  std::array<std::uint64_t, 4> lanes{};
  for (std::size_t j = 0; j < lanes.size(); ++j)
    lanes[j] = seed + j * golden_gamma;

  const std::uint8_t* cells = bytes.data();
  const std::size_t size = bytes.size();
  std::size_t at = 0;
  for (; at + 32 <= size; at += 32) {
    for (std::size_t j = 0; j < lanes.size(); ++j) {
      lanes[j] = absorb(lanes[j], load_le64(cells + at + 8 * j));
    }
  }
  for (std::size_t j = 0; at < size; ++j, at += 8) {
    std::array<std::uint8_t, 8> tail{};
    std::memcpy(tail.data(), cells + at, std::min<std::size_t>(8, size - at));
    lanes[j] = absorb(lanes[j], load_le64(tail.data()));
  }

  std::uint64_t hash = seed;
  for (const std::uint64_t lane : lanes)
    hash = mix64(hash ^ lane);
  return hash;
}

} // namespace detail

} // namespace lifebench
