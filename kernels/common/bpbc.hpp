// Bitwise summing of the Game of Life (B3/S23), after T. Fujita, K. Nakano and Y. Ito, "Fast
// Simulation of Conway's Game of Life using Bitwise Parallel Bulk Computation on a GPU"
// (seed 003, Sections 4 and 5; BPBC = bitwise parallel bulk computation): every
// bit of a word is one cell, and eight words holding the eight neighbours of each cell
// (already shifted into alignment) are added bit-slice by bit-slice as a tree of half and
// full adders. Algorithm SINGLE-WORD computes the next state of one word in 34 operations
// (Lemma 1); Algorithm DOUBLE-WORD computes two vertically adjacent words in 59 operations
// (Lemma 2), as the two words share four of their neighbour words. Both follow the paper's
// listing line by line: the helpers below are its recurring lines, with their operation
// counts, and only &, |, ^ and ~ are applied to words, so a counting word type can check
// the totals. W is any unsigned word type (uint32_t, uint64_t) or a type with those four
// operators.
#pragma once

#include "common/host_device.hpp"

namespace lifebench::bpbc {

// Bit planes of a sum of two words: (one, zero) = (x & y, x ^ y). 2 operations.
template <class W> struct Sum2 {
  W one;
  W zero;
};

// Bit planes of a sum of four words (0..4): 5 operations from two Sum2.
template <class W> struct Sum4 {
  W two;
  W one;
  W zero;
};

// Bit planes of a sum of eight words with bits 2 and 3 merged (two_three = sum >= 4).
template <class W> struct Sum8 {
  W two_three;
  W one;
  W zero;
};

// Next states of the two words of Algorithm DOUBLE-WORD.
template <class W> struct WordPair {
  W k;
  W l;
};

namespace detail {

// Lines 1-4 of SINGLE-WORD: 2 binary operations.
template <class W> LIFEBENCH_HOST_DEVICE Sum2<W> add2(W x, W y) {
  return {x & y, x ^ y};
}

// Lines 5-7: 5 binary operations. Neither sum can be (1, 1), so bit 2 is one AND.
template <class W> LIFEBENCH_HOST_DEVICE Sum4<W> add4(Sum2<W> p, Sum2<W> q) {
  return {p.one & q.one, p.one ^ q.one ^ (p.zero & q.zero), p.zero ^ q.zero};
}

// Lines 11-15: 9 binary operations. Bit 2 of the result is or-ed with every carry into
// it, since a Life cell only needs to know whether the count reached 4.
template <class W> LIFEBENCH_HOST_DEVICE Sum8<W> add8(Sum4<W> p, Sum4<W> q) {
  const W zero = p.zero ^ q.zero;
  const W x = p.zero & q.zero;
  const W y = p.one ^ q.one;
  const W one = x ^ y;
  const W two_three = p.two | q.two | (p.one & q.one) | (x & y);
  return {two_three, one, zero};
}

// Lines 17-20: 5 binary and 2 unary operations. A cell is alive next if the count is 3,
// or if it is 2 and the cell is alive (B3/S23).
template <class W> LIFEBENCH_HOST_DEVICE W next_state(W centre, Sum8<W> s) {
  const W z = ~s.two_three & s.one;
  const W count2 = ~s.zero & z;
  const W count3 = s.zero & z;
  return (centre & count2) | count3;
}

} // namespace detail

// Algorithm SINGLE-WORD (34 operations). a..h are the eight neighbour words of `centre`
// (any order: the sum is symmetric), each shifted so that bit j holds the neighbour of
// bit j of `centre`. Returns the next state of `centre`.
template <class W>
LIFEBENCH_HOST_DEVICE W single_word(W a, W b, W c, W d, W e, W f, W g, W h, W centre) {
  const Sum4<W> a_d = detail::add4(detail::add2(a, b), detail::add2(c, d));
  const Sum4<W> e_h = detail::add4(detail::add2(e, f), detail::add2(g, h));
  return detail::next_state(centre, detail::add8(a_d, e_h));
}

// Algorithm DOUBLE-WORD (59 operations) for word k and the word l directly below it, with
// the paper's names (its Figure 5), all aligned with k and l:
//   a, b, c: the row above k (shifted left, unshifted, shifted right);
//   d, e:    k's row shifted left and right;
//   i, j:    l's row shifted left and right;
//   f, g, h: the row below l (shifted left, unshifted, shifted right).
// k's neighbours are a, b, c, d, e, i, j, l; l's are d, e, f, g, h, i, j, k.
template <class W>
LIFEBENCH_HOST_DEVICE WordPair<W> double_word(W a, W b, W c, W d, W e, W f, W g, W h, W i, W j, W k,
                                              W l) {
  const Sum2<W> de = detail::add2(d, e);
  const Sum2<W> ij = detail::add2(i, j);
  const Sum2<W> ab = detail::add2(a, b);
  const Sum2<W> cl = detail::add2(c, l);
  const Sum2<W> fg = detail::add2(f, g);
  const Sum2<W> hk = detail::add2(h, k);
  const Sum4<W> deij = detail::add4(de, ij);
  const Sum4<W> abcl = detail::add4(ab, cl);
  const Sum4<W> fghk = detail::add4(fg, hk);
  return {detail::next_state(k, detail::add8(abcl, deij)),
          detail::next_state(l, detail::add8(fghk, deij))};
}

} // namespace lifebench::bpbc
