// Seed 000's first OpenCL kernel: one work-item per 32-bit word, one generation
// per launch, everything in global memory.
//
// Layout: a row of the grid is width/32 words; word k holds the cells
// x = 32k ... 32k+31, the leftmost in the most significant bit, so that the west
// neighbour of a cell is one bit up and the east neighbour one bit down.
//
// Compile-time parameters (the host passes -D options; the program is built once
// per rule and boundary, so the choice costs nothing at run time):
//   LIFE_BIRTH, LIFE_SURVIVE  9-bit masks: bit n set = born / survives with n live neighbours
//   LIFE_TORUS                1: the grid wraps around; 0: cells outside it are dead
#if !defined(LIFE_BIRTH) || !defined(LIFE_SURVIVE) || !defined(LIFE_TORUS)
#error "build with -DLIFE_BIRTH=<mask> -DLIFE_SURVIVE=<mask> -DLIFE_TORUS=<0|1>"
#endif

#include "adders.cl"

#if !LIFE_TORUS
uint word_or_dead(__global const uint* field, bool inside, uint index) {
  return inside ? field[index] : 0u;
}
#endif

__kernel void life_step(__global const uint* restrict field, __global uint* restrict next_field,
                        const uint words_per_row, const uint height) {
  const uint column = get_global_id(0);
  const uint row = get_global_id(1);
  if (column >= words_per_row || row >= height) return;

  // The nine words around this one: north-west ... south-east.
  const uint here = row * words_per_row;
#if LIFE_TORUS
  const uint west = (column == 0 ? words_per_row : column) - 1;
  const uint east = column + 1 == words_per_row ? 0 : column + 1;
  const uint north = ((row == 0 ? height : row) - 1) * words_per_row;
  const uint south = (row + 1 == height ? 0 : row + 1) * words_per_row;
  const uint nw = field[north + west], n = field[north + column], ne = field[north + east];
  const uint w = field[here + west], centre = field[here + column], e = field[here + east];
  const uint sw = field[south + west], s = field[south + column], se = field[south + east];
#else
  // Indices of missing words wrap around in unsigned arithmetic but are never read.
  const bool has_w = column > 0, has_e = column + 1 < words_per_row;
  const bool has_n = row > 0, has_s = row + 1 < height;
  const uint north = here - words_per_row, south = here + words_per_row;
  const uint nw = word_or_dead(field, has_n && has_w, north + column - 1);
  const uint n = word_or_dead(field, has_n, north + column);
  const uint ne = word_or_dead(field, has_n && has_e, north + column + 1);
  const uint w = word_or_dead(field, has_w, here + column - 1);
  const uint centre = field[here + column];
  const uint e = word_or_dead(field, has_e, here + column + 1);
  const uint sw = word_or_dead(field, has_s && has_w, south + column - 1);
  const uint s = word_or_dead(field, has_s, south + column);
  const uint se = word_or_dead(field, has_s && has_e, south + column + 1);
#endif

  // Eight words whose bit p is one neighbour of cell p: west neighbours come from
  // the next higher bit (the leftmost cell's from bit 0 of the word to the west),
  // east neighbours from the next lower bit (the rightmost's from the east word's bit 31).
  const uint from_nw = (n >> 1) | (nw << 31), from_ne = (n << 1) | (ne >> 31);
  const uint from_w = (centre >> 1) | (w << 31), from_e = (centre << 1) | (e >> 31);
  const uint from_sw = (s >> 1) | (sw << 31), from_se = (s << 1) | (se >> 31);

  // Eight one-bit numbers per cell, reduced with adders as in the blog's
  // counter: three groups (3 + 3 + 2), then the group sums' units and twos.
  uint twos_1, units_1, twos_2, units_2, twos_3, units_3;
  add3(from_nw, n, from_ne, &twos_1, &units_1);
  add3(from_w, from_e, from_sw, &twos_2, &units_2);
  add2(s, from_se, &twos_3, &units_3);
  uint twos_4, units, fours, twos_5;
  add3(units_1, units_2, units_3, &twos_4, &units);
  add3(twos_1, twos_2, twos_3, &fours, &twos_5);
  // Live neighbours = 4 * fours + 2 * (twos_4 + twos_5) + units.

#if LIFE_BIRTH == 8 && LIFE_SURVIVE == 12
  // B3/S23 as the blog writes it: 2 or 3 neighbours means no fours and exactly one
  // two; then a live cell stays alive, and a dead one needs the unit (3) to be born.
  const uint next = (centre | units) & (twos_4 ^ twos_5) & ~fours;
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
  const uint next = (centre & kept) | (~centre & born);
#endif
  next_field[here + column] = next;
}
