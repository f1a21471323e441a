// The rate cpu-blocked's kernel cannot pass: its vector logic instructions per cell update,
// as counted in its compiled loop on each SIMD target, and the rate at which the workers
// issue that instruction, measured. Their quotient is the kernel's logic ceiling in cell
// updates a second (experiments/cpu-blocked/README.md).
#pragma once

#include "cpu/thread_pool.hpp"

#include <cstdint>
#include <optional>

namespace lifebench::cpu_blocked {

struct Tiling;

/// Vector logic instructions per cell update of passes of `tiling` over a torus of `height`
/// rows of `words` words, the recomputed halo rows and words included (a dead boundary
/// skips some of them); nothing on a target whose kernel's instructions were not counted.
std::optional<double> logic_per_cell_update(const Tiling& tiling, std::int64_t words,
                                            std::int64_t height);

/// The vector logic instructions a second that the workers of `pool` issue at once, summed
/// over them (60 ms): the rate the kernel's logic cannot pass. Nothing on a target whose
/// kernel's instructions were not counted.
std::optional<double> logic_rate(pool::ThreadPool& pool);

} // namespace lifebench::cpu_blocked
