// Seed 000's multi-step OpenCL kernels ("Multi-Step Simulation", "Shared Memory",
// "Work-Per-Thread"), one source configured by -D options; each experiment's .cl
// sets the technique's options and includes this file.
//
// Layout: a row is width/32 words; word k holds x = 32k ... 32k+31, the leftmost in
// the least significant bit.
//
// A work-item owns one word column k and WPT consecutive rows. For each row it loads
// the words k-1, k and k+1 and keeps the 64 cells x = 32k-16 ... 32k+47 as a *strip*
// of two words (.x: x = 32k-16 ... 32k+15, .y: x = 32k+16 ... 32k+47), the blog's
// half-column shift. Cells beyond the strip are taken as dead, so after s steps the
// s cells at each end are dirty; with at most 16 steps per launch the middle 32 (word
// k) stay exact. A work-group is GROUP work-items stacked vertically (GROUP * WPT rows);
// each step they swap their top and bottom rows with the work-items above and below
// (EXCHANGE_LOCAL: through local memory; else through a global buffer), and nothing
// with other work-groups, so PAD rows at each end of a group go dirty and the group
// writes back the GROUP * WPT - 2 * PAD rows between them.
//
// Options: LIFE_BIRTH, LIFE_SURVIVE (life.cl); LIFE_TORUS (1: wrap around, 0: dead
// outside the grid); PAD (rows of padding = the most steps per launch, <= 16); GROUP
// (work-items per work-group); WPT (rows per work-item, <= 32); EXCHANGE_LOCAL (0|1).
#if !defined(LIFE_TORUS) || !defined(PAD) || !defined(GROUP) || !defined(WPT) ||                  \
    !defined(EXCHANGE_LOCAL)
#error "build with -DLIFE_TORUS, -DPAD, -DGROUP, -DWPT and -DEXCHANGE_LOCAL"
#endif
#if PAD < 1 || PAD > 16 || WPT < 1 || WPT > 32 || GROUP * WPT <= 2 * PAD
#error "need 1 <= PAD <= 16, 1 <= WPT <= 32 and GROUP * WPT > 2 * PAD"
#endif

#include "life.cl"

/// Bit p is the west (east) neighbour of strip cell p; cells beyond the strip are dead.
uint2 strip_west(uint2 v) { return (uint2)(v.x << 1, (v.y << 1) | (v.x >> 31)); }
uint2 strip_east(uint2 v) { return (uint2)((v.x >> 1) | (v.y << 31), v.y >> 1); }

/// One generation of a strip from itself and the strips above and below.
uint2 strip_step(uint2 north, uint2 here, uint2 south) {
  const uint2 nw = strip_west(north), ne = strip_east(north);
  const uint2 w = strip_west(here), e = strip_east(here);
  const uint2 sw = strip_west(south), se = strip_east(south);
  return (uint2)(life_rule(here.x, nw.x, north.x, ne.x, w.x, e.x, sw.x, south.x, se.x),
                 life_rule(here.y, nw.y, north.y, ne.y, w.y, e.y, sw.y, south.y, se.y));
}

/// The strip around word `centre` from the words west and east of it.
uint2 strip_of(uint west, uint centre, uint east) {
  return (uint2)((west >> 16) | (centre << 16), (centre >> 16) | (east << 16));
}

/// The strip's middle 32 cells: the word it was loaded around.
uint strip_middle(uint2 v) { return (v.x >> 16) | (v.y << 16); }

// The rows a work-item swaps per step: its top and bottom row (one row if WPT is 1).
#define EDGES (WPT == 1 ? 1 : 2)
#define TOP 0
#define BOTTOM (EDGES - 1)

#if EXCHANGE_LOCAL
#define EXCHANGE_ARGUMENT
#define EXCHANGE_FENCE CLK_LOCAL_MEM_FENCE
#else
// The group's slice of a global buffer of 2 * EDGES * GROUP strips per work-group;
// volatile so that every step reads what the neighbours just wrote, not a cached copy.
#define EXCHANGE_ARGUMENT , volatile __global uint2* restrict exchange
#define EXCHANGE_FENCE CLK_GLOBAL_MEM_FENCE
#endif

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void
life_strip(__global const uint* restrict field, __global uint* restrict next_field,
           const uint words_per_row, const uint height, const uint steps EXCHANGE_ARGUMENT) {
  const uint item = get_local_id(0);
  const uint column = get_global_id(1);
  // Row of this work-item's first row; negative for the padding above row 0.
  const int first_row = (int)(get_group_id(0) * (GROUP * WPT - 2 * PAD)) - PAD + (int)(item * WPT);

#if EXCHANGE_LOCAL
  // Double-buffered by step parity, so that one barrier per step suffices: a work-item
  // writing step t+1's edges has passed the barrier of step t, which every reader of
  // that buffer (step t-1) had finished reading before it reached.
  __local uint2 edges[2][EDGES][GROUP];
#define EDGE(buffer, edge, index) edges[buffer][edge][index]
#else
  volatile __global uint2* edges =
      exchange + (size_t)(get_group_id(1) * get_num_groups(0) + get_group_id(0)) * (2 * EDGES * GROUP);
#define EDGE(buffer, edge, index) edges[((buffer) * EDGES + (edge)) * GROUP + (index)]
#endif

  // rows[1 ... WPT] are this work-item's strips, rows[0] and rows[WPT + 1] the
  // neighbours' edges of the current step.
  uint2 rows[WPT + 2];
#if LIFE_TORUS
  const uint west = (column == 0 ? words_per_row : column) - 1;
  const uint east = column + 1 == words_per_row ? 0 : column + 1;
#pragma unroll
  for (int j = 1; j <= WPT; ++j) {
    int row = (first_row + j - 1) % (int)height;
    const uint offset = (uint)(row < 0 ? row + (int)height : row) * words_per_row;
    rows[j] = strip_of(field[offset + west], field[offset + column], field[offset + east]);
  }
#else
  // Dead outside: missing words read as 0, and after every step the cells outside the
  // grid are cleared again (they would otherwise come alive beside the edge).
  const uint2 inside_columns = (uint2)(column == 0 ? 0xFFFF0000u : 0xFFFFFFFFu,
                                       column + 1 == words_per_row ? 0x0000FFFFu : 0xFFFFFFFFu);
#pragma unroll
  for (int j = 1; j <= WPT; ++j) {
    const int row = first_row + j - 1;
    const bool inside = row >= 0 && row < (int)height;
    const uint offset = inside ? (uint)row * words_per_row : 0;
    rows[j] = inside ? strip_of(column > 0 ? field[offset + column - 1] : 0u,
                                field[offset + column],
                                column + 1 < words_per_row ? field[offset + column + 1] : 0u)
                     : (uint2)(0u);
  }
#endif

  for (uint step = 0; step < steps; ++step) {
    const uint buffer = step & 1;
    EDGE(buffer, TOP, item) = rows[1];
#if WPT > 1
    EDGE(buffer, BOTTOM, item) = rows[WPT];
#endif
    barrier(EXCHANGE_FENCE);
    rows[0] = item > 0 ? EDGE(buffer, BOTTOM, item - 1) : (uint2)(0u);
    rows[WPT + 1] = item + 1 < GROUP ? EDGE(buffer, TOP, item + 1) : (uint2)(0u);
    uint2 above = rows[0];
#pragma unroll
    for (int j = 1; j <= WPT; ++j) {
      const uint2 here = rows[j];
      rows[j] = strip_step(above, here, rows[j + 1]);
#if !LIFE_TORUS
      const int row = first_row + j - 1;
      rows[j] = row >= 0 && row < (int)height ? rows[j] & inside_columns : (uint2)(0u);
#endif
      above = here;
    }
  }

  // Write back the rows between the groups' padding that lie in the grid (the last
  // group may reach past the bottom; on a torus those rows belong to the first group).
#pragma unroll
  for (int j = 1; j <= WPT; ++j) {
    const int in_group = (int)(item * WPT) + j - 1;
    const int row = first_row + j - 1;
    if (in_group >= PAD && in_group < GROUP * WPT - PAD && row < (int)height) {
      next_field[(uint)row * words_per_row + column] = strip_middle(rows[j]);
    }
  }
}
