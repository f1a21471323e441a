// hex-cuda-bitsliced's kernels as the simulator (bitsliced.cu) launches them. The kernels
// themselves are in steps_kernels.cuh, compiled in a source for each rule compiled in
// (steps_b2s34.cu, steps_b245s3.cu, steps_b2s.cu) and two for the rule read at run time
// (steps_any_rule_torus.cu, steps_any_rule_plane.cu): their 88 kernels in one source were
// the longest compile of a build (125 s, the run-time rule's half of it), where the five
// sources take 19 to 40 s each, side by side.
#pragma once

#include "common/hex.hpp"

#include <cstdint>
#include <cuda_runtime.h>

namespace lifebench::hex_bitsliced {

using Word = std::uint64_t;
constexpr int kRows = 40;  // a lane's rows, in registers (48 spills with a dead boundary)
constexpr int kLanes = 32; // one warp across
constexpr int kOutLanes = kLanes - 2; // lanes 0 and 31 are halo
constexpr unsigned kWarpsPerBlock = 2;

// Rules compiled into the kernel (others run through hex::RuntimeRule).
using B2S34 = hex::StaticRule<(1U << 2), (1U << 3) | (1U << 4)>;
using B245S3 = hex::StaticRule<(1U << 2) | (1U << 4) | (1U << 5), (1U << 3)>;
using B2S = hex::StaticRule<(1U << 2), 0U>;

struct Geometry {
  int columns;    // words per row
  int height;     // rows
  int steps;      // generations this launch
  int warps_x;    // warps across a row
  int warps;      // all warps
  Word last_mask; // the last word's cells inside the width (dead boundary)
  unsigned two;   // 2, unknown to the compiler: x * two stays a multiply-add (shifts=madd)
  int rows;       // wavefront: rows a lane writes
};

/// A word's two 32-bit halves, which the sums' kernels step (lo = cells 0..31, hi = 32..63).
using Half = std::uint32_t;

/// The generation's form (the `logic` parameter).
enum class Logic { tree, sums, sums_trim, wavefront };

/// One launch of g.steps generations from `in` to `out` on `stream`.
struct Launch {
  Logic logic;
  bool torus;
  bool madd; ///< sums: one-cell shifts as multiply-adds (shifts=madd)
  const Word* in;
  Word* out;
  Geometry g;
  cudaStream_t stream;
};

/// Enqueues `launch` on the torus (Torus) or a dead boundary with the rule as 64-bit words
/// (`rule`, tree) and as 32-bit halves (`half_rule`, sums); instantiated for B2S34, B245S3,
/// B2S and hex::RuntimeRule in sources of their own, the run-time rule's in one for each
/// boundary (its kernels take the longest to compile).
template <bool Torus, class Rule, class HalfRule>
void enqueue_on(const Launch& launch, const Rule& rule, const HalfRule& half_rule);

template <class Rule, class HalfRule>
void enqueue(const Launch& launch, const Rule& rule, const HalfRule& half_rule) {
  if (launch.torus) {
    enqueue_on<true>(launch, rule, half_rule);
  } else {
    enqueue_on<false>(launch, rule, half_rule);
  }
}

} // namespace lifebench::hex_bitsliced
