// Seed 000's first OpenCL kernel: one work-item per 32-bit word, one generation
// per launch, everything in global memory.
//
// Layout: a row of the grid is width/32 words; word k holds the cells
// x = 32k ... 32k+31, the leftmost in the least significant bit, so that the west
// neighbour of a cell is one bit down and the east neighbour one bit up.
//
// Compile-time parameters (the host passes -D options; the program is built once
// per rule and boundary, so the choice costs nothing at run time): LIFE_BIRTH and
// LIFE_SURVIVE (see life.cl), LIFE_TORUS (1: the grid wraps around; 0: cells outside
// it are dead).
#ifndef LIFE_TORUS
#error "build with -DLIFE_TORUS=<0|1>"
#endif

#include "life.cl"

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
  // the next lower bit (the leftmost cell's from bit 31 of the word to the west),
  // east neighbours from the next higher bit (the rightmost's from the east word's bit 0).
  const uint from_nw = (n << 1) | (nw >> 31), from_ne = (n >> 1) | (ne << 31);
  const uint from_w = (centre << 1) | (w >> 31), from_e = (centre >> 1) | (e << 31);
  const uint from_sw = (s << 1) | (sw >> 31), from_se = (s >> 1) | (se << 31);
  next_field[here + column] =
      life_rule(centre, from_nw, n, from_ne, from_w, from_e, from_sw, s, from_se);
}
