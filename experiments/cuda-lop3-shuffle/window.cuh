// The bit logic and tile geometry of cuda-lop3-shuffle, for the kernel and for
// host-side checks: a thread's 64-cell window of a row is two words, `left`
// (16 cells of the word to the left, then the first 16 of the written word) and
// `right` (its last 16, then 16 of the word to the right).
#pragma once

#include "common/host_device.hpp"
#include "cuda/life_lop3.cuh"

#include <cstdint>

namespace lifebench::shuffle_window {

struct Window {
  std::uint32_t left;
  std::uint32_t right;
};

/// The window around word `self` of a row from it and its two neighbour words.
LIFEBENCH_HOST_DEVICE Window load(std::uint32_t before, std::uint32_t self, std::uint32_t after) {
  return {(before >> 16) | (self << 16), (self >> 16) | (after << 16)};
}

/// The 32 cells written: the window's middle.
LIFEBENCH_HOST_DEVICE std::uint32_t middle(Window w) {
  return (w.left >> 16) | (w.right << 16);
}

/// One word of a window row with its west and east neighbour words and its three-cell
/// sums, computed once per row and generation: the row's own step takes its west and
/// east words, the steps of the rows above and below take its sums (the blog's kernel
/// shares them so; 8 LOP3 a word and generation instead of sat10's 10). Outside the
/// window reads as dead: its outer cells go wrong, one more per generation, which the
/// 16 padding cells each side absorb.
struct Word {
  std::uint32_t west, self, east;
  cuda::life::RowSum sum;
};

LIFEBENCH_HOST_DEVICE Word word(std::uint32_t west, std::uint32_t self, std::uint32_t east) {
  return {west, self, east, cuda::life::row_sum(west, self, east)};
}

struct Prepared {
  Word left, right;
};

LIFEBENCH_HOST_DEVICE Prepared prepare(Window w) {
  // Plain shifts rather than funnel-shift intrinsics: the compiler then puts the
  // left shifts on the FMA pipe (IMAD.SHL), off the ALU pipe that the LOP3s fill.
  return {word(w.left << 1, w.left, (w.left >> 1) | (w.right << 31)),
          word((w.right << 1) | (w.left >> 31), w.right, w.right >> 1)};
}

/// One generation of a window row from it and the rows above and below.
LIFEBENCH_HOST_DEVICE Window step(const Prepared& up, const Prepared& mid, const Prepared& down) {
  using cuda::life::step_sat10_rows;
  return {step_sat10_rows(up.left.sum, mid.left.west, mid.left.east, down.left.sum, mid.left.self),
          step_sat10_rows(up.right.sum, mid.right.west, mid.right.east, down.right.sum,
                          mid.right.self)};
}

/// Rows of padding at each end of a warp's tile: one more row at each end goes wrong
/// per generation (the top lane's upper halo and the bottom lane's lower one are not
/// its neighbours' rows). Rounded up to whole 128-bit loads, so that every lane's rows
/// start on one in a column of words.
LIFEBENCH_HOST_DEVICE unsigned padding_rows(unsigned steps_per_launch) {
  return (steps_per_launch + 3) / 4 * 4;
}

/// Rows a warp's tile writes: 32 * work_per_thread rows are simulated, `padding` at
/// each end go wrong.
LIFEBENCH_HOST_DEVICE unsigned output_rows(unsigned work_per_thread, unsigned padding) {
  return 32 * work_per_thread - 2 * padding;
}

} // namespace lifebench::shuffle_window
