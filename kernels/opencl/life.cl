// One generation of a square-grid B/S rule on 32 cells at once, shared by the
// OpenCL experiments. The caller aligns the neighbours: bit p of `nw` is the
// north-west neighbour of the cell in bit p of `centre`, and so on.
//
// Compile-time parameters (the host passes -D options; the program is built once
// per rule, so the choice costs nothing at run time):
//   LIFE_BIRTH, LIFE_SURVIVE  9-bit masks: bit n set = born / survives with n live neighbours
#ifndef LIFEBENCH_LIFE_CL
#define LIFEBENCH_LIFE_CL

#if !defined(LIFE_BIRTH) || !defined(LIFE_SURVIVE)
#error "build with -DLIFE_BIRTH=<mask> -DLIFE_SURVIVE=<mask>"
#endif

#include "adders.cl"

uint life_rule(uint centre, uint nw, uint n, uint ne, uint w, uint e, uint sw, uint s, uint se) {
  // Eight one-bit numbers per cell, reduced with adders as in the blog's
  // counter: three groups (3 + 3 + 2), then the group sums' units and twos.
  uint twos_1, units_1, twos_2, units_2, twos_3, units_3;
  add3(nw, n, ne, &twos_1, &units_1);
  add3(w, e, sw, &twos_2, &units_2);
  add2(s, se, &twos_3, &units_3);
  uint twos_4, units, fours, twos_5;
  add3(units_1, units_2, units_3, &twos_4, &units);
  add3(twos_1, twos_2, twos_3, &fours, &twos_5);
  // Live neighbours = 4 * fours + 2 * (twos_4 + twos_5) + units.

#if LIFE_BIRTH == 8 && LIFE_SURVIVE == 12
  // B3/S23 as the blog writes it: 2 or 3 neighbours means no fours and exactly one
  // two; then a live cell stays alive, and a dead one needs the unit (3) to be born.
  return (centre | units) & (twos_4 ^ twos_5) & ~fours;
#else
  // Any other rule: the neighbour count in binary (bit3 bit2 bit1 units), then
  // every count the rule names; the masks are constants, so the loop folds away.
  const uint bit1 = twos_4 ^ twos_5;
  const uint carry = twos_4 & twos_5;
  const uint bit2 = fours ^ carry;
  const uint bit3 = fours & carry;
  uint born = 0, kept = 0;
  for (uint count = 0; count <= 8; ++count) {
    const uint equal = ((count & 1) ? units : ~units) & ((count & 2) ? bit1 : ~bit1) &
                       ((count & 4) ? bit2 : ~bit2) & ((count & 8) ? bit3 : ~bit3);
    if ((((uint)LIFE_BIRTH) >> count) & 1u) born |= equal;
    if ((((uint)LIFE_SURVIVE) >> count) & 1u) kept |= equal;
  }
  return (centre & kept) | (~centre & born);
#endif
}

#endif
