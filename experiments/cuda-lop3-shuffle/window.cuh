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

/// A window row with its west and east neighbour words, computed once per row and
/// generation and used by the rows above, at and below. Outside the window reads
/// as dead: its outer cells go wrong, one more per generation, which the 16
/// padding cells each side absorb.
struct Shifted {
  std::uint32_t left_west, left, left_east, right_west, right, right_east;
};

LIFEBENCH_HOST_DEVICE Shifted shifted(Window w) {
  // Plain shifts rather than funnel-shift intrinsics: the compiler then puts the
  // left shifts on the FMA pipe (IMAD.SHL), off the ALU pipe that the LOP3s fill.
  return {
      w.left << 1, w.left,      (w.left >> 1) | (w.right << 31), (w.right << 1) | (w.left >> 31),
      w.right,     w.right >> 1};
}

/// One generation of a window row (sat10, as the blog's final kernel).
LIFEBENCH_HOST_DEVICE Window step(const Shifted& up, const Shifted& mid, const Shifted& down) {
  using cuda::life::step_sat10;
  return {step_sat10({{up.left_west, up.left, up.left_east, mid.left_west, mid.left_east,
                       down.left_west, down.left, down.left_east}},
                     mid.left),
          step_sat10({{up.right_west, up.right, up.right_east, mid.right_west, mid.right_east,
                       down.right_west, down.right, down.right_east}},
                     mid.right)};
}

/// Rows a warp's tile writes: 32 * work_per_thread rows are simulated, `steps`
/// at each end go wrong (the top lane's upper halo and the bottom lane's lower
/// one are not its neighbours' rows).
LIFEBENCH_HOST_DEVICE unsigned output_rows(unsigned work_per_thread, unsigned steps) {
  return 32 * work_per_thread - 2 * steps;
}

} // namespace lifebench::shuffle_window
