// Two generations a launch for cuda3d-bitsliced (steps_per_launch = 2): the grid is read
// and written once for two generations, half the memory traffic of one a launch.
//
// A block is kStrips strips of kRows rows stacked along y, each strip whole rows of words
// across its lanes (rows of 1, 2, 4 ... 32 words), and walks a segment of planes along z.
// Every thread runs two pair walks (pair_walk.hpp) one step apart: the first from the
// grid computes the next generation of its own rows, two planes a step; the second
// advances those words once more. Along x the second walk takes its neighbours from the
// lanes beside, as the first does; along z it follows the first a plane behind; along y
// it needs the row above and below its strip, which the strips beside it computed: each
// step every strip leaves its first and last rows in shared memory (two slots, so one
// barrier a step suffices) and reads its neighbours'. The block's two outermost rows lack
// a neighbour there, so a block writes only its kBlockRows - 2 inner rows of the second
// generation and blocks overlap by two rows: 32 / 30 of the first generation's work
// (and of the second's, whose two outer rows are computed and dropped) for half the
// traffic.
#pragma once

#include "common/bitsliced3d.hpp"
#include "pair_walk.hpp"

#include <cuda_runtime.h>

namespace lifebench::bitsliced3d::two_steps {

inline constexpr int kStrips = 8;                  ///< strips of a block, stacked along y
inline constexpr int kRows = 4;                    ///< rows of words a thread updates
inline constexpr int kBlockRows = kStrips * kRows; ///< first-generation rows of a block
inline constexpr int kPitch = kBlockRows - 2;      ///< second-generation rows it writes
inline constexpr int kMaxBlock = kStrips * 32;     ///< threads: rows of at most 32 words

/// Blocks down a cube of `side` rows, kPitch rows each (the last stops at the face).
inline int block_rows(int side) {
  return (side + kPitch - 1) / kPitch;
}

/// The first generation's words a strip hands its neighbours: its first and last rows of
/// the step's two planes, in the slot of the step's parity.
struct Edges {
  Word first[2][2][kMaxBlock]; ///< [slot][plane][thread]
  Word last[2][2][kMaxBlock];
};

/// One thread's share: word `word` of rows first_row ... first_row + kRows - 1 (unwrapped:
/// -1 <= first_row, rows beyond the faces wrap on a torus and are dead otherwise).
template <bool Torus, class RuleFn> class Thread {
public:
  __device__ Thread(const Word* in, Word* out, const Cube& cube, int word, int strip, int first_row,
                    bool outer_first, bool outer_last, const RuleFn& rule, unsigned lanes)
      : column_(in, out, cube, word, first_row, lanes), rule_(rule), side_(cube.side),
        words_(cube.words), thread_(static_cast<int>(threadIdx.x)), strip_(strip) {
    for (int r = 0; r < kRows; ++r) {
      const int y = first_row + r;
      inside_[r] = Torus || (y >= 0 && y < cube.side);
      // The block's outermost rows and rows past the last face are not written.
      writes_[r] = y < cube.side && !(outer_first && r == 0) && !(outer_last && r == kRows - 1);
    }
  }

  /// The first generation in planes p and p + 1 (next[0], next[1]) from the grid's
  /// plane sums lo = P(p - 1) and a = P(p), filling b = P(p + 1) and hi = P(p + 2) from
  /// the words `ahead` holds, which then load planes p + 3 and p + 4 for the next step:
  /// their latency hides behind this step's logic and barrier.
  __device__ void first(int p, const PlaneSums<kRows>& lo, const PlaneSums<kRows>& a,
                        PlaneSums<kRows>& b, PlaneSums<kRows>& hi, Word (&ahead)[2][kRows + 2],
                        Word (&next)[2][kRows]) const {
    column_.sums(ahead[0], b);
    column_.sums(ahead[1], hi);
    column_.fetch(p + 3, ahead[0]);
    column_.fetch(p + 4, ahead[1]);
    for (int r = 0; r < kRows; ++r) {
      const pairs::Pair q = pairs::pair_sum(a.sum[r], b.sum[r]);
      next[0][r] = pairs::finish(rule_, q, lo.sum[r], a.self[r]);
      next[1][r] = pairs::finish(rule_, q, hi.sum[r], b.self[r]);
      if (!Torus) {
        // Outside a dead cube the first generation is dead too.
        next[0][r] = inside_[r] && p >= 0 && p < side_ ? next[0][r] : 0;
        next[1][r] = inside_[r] && p + 1 < side_ ? next[1][r] : 0;
      }
    }
  }

  /// Hands `next` to the strips beside through `edges` (slot `slot`) and takes theirs:
  /// above[k], below[k] are the rows before and after the strip in plane k of the step
  /// (0 where the block has no such strip: those rows' outputs are not written).
  __device__ void swap_edges(Edges& edges, int slot, const Word (&next)[2][kRows], Word (&above)[2],
                             Word (&below)[2]) const {
    for (int k = 0; k < 2; ++k) {
      edges.first[slot][k][thread_] = next[k][0];
      edges.last[slot][k][thread_] = next[k][kRows - 1];
    }
    __syncthreads();
    for (int k = 0; k < 2; ++k) {
      above[k] = strip_ > 0 ? edges.last[slot][k][thread_ - words_] : 0;
      below[k] = strip_ + 1 < kStrips ? edges.first[slot][k][thread_ + words_] : 0;
    }
  }

  /// The plane sums of the first generation's plane: the strip's rows and the rows beside
  /// (read where the grid's are, so the column's edges and faces apply alike).
  __device__ void sums(const Word (&rows)[kRows], Word above, Word below,
                       PlaneSums<kRows>& s) const {
    Word middle[kRows + 2];
    middle[0] = above;
    for (int r = 0; r < kRows; ++r)
      middle[r + 1] = rows[r];
    middle[kRows + 1] = below;
    column_.sums(middle, s);
  }

  /// The second generation in planes z and z + 1 (z + 1 only below `end`) from the first
  /// generation's plane sums lo = P(z - 1) and a = P(z), filling b and hi from its planes
  /// z + 1 and z + 2 (`next`, with the rows beside).
  __device__ void second(int z, int end, const PlaneSums<kRows>& lo, const PlaneSums<kRows>& a,
                         PlaneSums<kRows>& b, PlaneSums<kRows>& hi, const Word (&next)[2][kRows],
                         const Word (&above)[2], const Word (&below)[2]) const {
    sums(next[0], above[0], below[0], b);
    sums(next[1], above[1], below[1], hi);
    for (int r = 0; r < kRows; ++r) {
      const pairs::Pair q = pairs::pair_sum(a.sum[r], b.sum[r]);
      const Word low = pairs::finish(rule_, q, lo.sum[r], a.self[r]);
      const Word high = pairs::finish(rule_, q, hi.sum[r], b.self[r]);
      if (writes_[r]) {
        column_.store(z, r, low);
        if (z + 1 < end) column_.store(z + 1, r, high);
      }
    }
  }

  /// Both walks through planes z0 ... z1 - 1 of the second generation (block-uniform:
  /// every thread reaches every barrier). Four plane sums of each generation rotate by
  /// renaming, the loop unrolled by two steps.
  __device__ void walk(Edges& edges, int z0, int z1) const {
    PlaneSums<kRows> a0{}, b0{}, c0{}, d0{}; // the grid's
    PlaneSums<kRows> a1{}, b1{}, c1{}, d1{}; // the first generation's
    Word ahead[2][kRows + 2];                // the grid's words of the next step's two planes
    Word next[2][kRows];
    Word above[2];
    Word below[2];
    int slot = 0;
    column_.sums(z0 - 2, a0);
    column_.sums(z0 - 1, b0);
    column_.fetch(z0, ahead[0]);
    column_.fetch(z0 + 1, ahead[1]);
    first(z0 - 1, a0, b0, c0, d0, ahead, next); // planes z0 - 1 and z0
    swap_edges(edges, slot, next, above, below);
    sums(next[0], above[0], below[0], a1);
    sums(next[1], above[1], below[1], b1);
    int z = z0;
    for (; z + 4 <= z1; z += 4) {
      first(z + 1, c0, d0, a0, b0, ahead, next);
      swap_edges(edges, slot ^= 1, next, above, below);
      second(z, z1, a1, b1, c1, d1, next, above, below);
      first(z + 3, a0, b0, c0, d0, ahead, next);
      swap_edges(edges, slot ^= 1, next, above, below);
      second(z + 2, z1, c1, d1, a1, b1, next, above, below);
    }
    if (z < z1) { // one to three planes left: a step writes two, the last one or two
      first(z + 1, c0, d0, a0, b0, ahead, next);
      swap_edges(edges, slot ^= 1, next, above, below);
      second(z, z1, a1, b1, c1, d1, next, above, below);
    }
    if (z + 2 < z1) {
      first(z + 3, a0, b0, c0, d0, ahead, next);
      swap_edges(edges, slot ^= 1, next, above, below);
      second(z + 2, z1, c1, d1, a1, b1, next, above, below);
    }
  }

private:
  pairs::Column<Torus, kRows, true> column_;
  RuleFn rule_;
  int side_;
  int words_;
  int thread_, strip_;
  bool inside_[kRows]; ///< dead boundary: false for rows outside the cube
  bool writes_[kRows]; ///< rows of the second generation this thread writes
};

/// Block (x, y): second-generation rows x * kPitch ... x * kPitch + kPitch - 1 (the last
/// block's rows stop at the face), planes y * planes ... ; kStrips * words threads.
template <bool Torus, class RuleFn>
__global__ void __launch_bounds__(kMaxBlock, 1)
    step_kernel(const Word* __restrict__ in, Word* __restrict__ out, Cube cube, int planes,
                RuleFn rule, unsigned lanes) {
  __shared__ Edges edges;
  const int thread = static_cast<int>(threadIdx.x);
  const int strip = thread / cube.words;
  const int first_row = static_cast<int>(blockIdx.x) * kPitch - 1 + strip * kRows;
  const int z0 = static_cast<int>(blockIdx.y) * planes;
  const int z1 = min(z0 + planes, cube.side);
  const Thread<Torus, RuleFn> self(in, out, cube, thread % cube.words, strip, first_row, strip == 0,
                                   strip + 1 == kStrips, rule, lanes);
  self.walk(edges, z0, z1);
}

} // namespace lifebench::bitsliced3d::two_steps
