// cpu-blocked's passes of several generations over memory, shared by cpu-blocked (a whole
// grid) and cpu-mpi (each rank's band between its halo rows). Rows of a grid are cut into
// tiles of `tile_words` words x `tile_rows` rows; a worker copies a tile with a halo of
// `steps` rows above and below and one word left and right into its own cache-resident
// buffers, advances it `steps` generations there (the valid rows shrink by one at each end
// per generation; a halo word goes wrong from its outer edge one cell per generation) and
// writes the last generation of the tile's own rows into the other grid buffer. The cell
// logic is Highway code compiled for every SIMD target, the best one chosen at run time
// (blocked_tiles.cpp).
#pragma once

#include "cpu/thread_pool.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::cpu_blocked {

/// Generations a pass may take: the one-word side halo goes wrong one cell per generation.
inline constexpr std::int64_t kMaxSteps = 63;

/// 64-bit words in the widest vector the kernel uses (512 bits).
inline constexpr std::int64_t kWidestVectorWords = 8;

/// Tile sizes of the passes, and their most generations.
struct Tiling {
  std::int64_t steps;
  std::int64_t tile_words; ///< at most the row's words
  std::int64_t tile_rows;
};

/// The two whole-grid buffers of a pass: rows of `words` 64-bit words (cells packed as
/// lifebench/packed.hpp packs them), 64-byte aligned; rows outside [0, height) wrap on a
/// torus and are dead otherwise.
struct PassGrid {
  const std::uint64_t* src;
  std::uint64_t* dst;
  std::int64_t words;
  std::int64_t height;
  bool torus;
};

/// The SIMD target the passes run on this CPU ("AVX3_DL", "AVX2", ...).
const char* target_name();

/// Passes over rows of a grid by a pool of `threads` workers that take tiles from a shared
/// queue, one at a time in row-major order (the workers' cores need not run at one speed),
/// each prefetching its next tile while it computes the current one.
class TilePasses {
public:
  TilePasses(int threads, const Tiling& tiling);
  ~TilePasses();
  TilePasses(const TilePasses&) = delete;
  TilePasses& operator=(const TilePasses&) = delete;

  /// Rows [row_begin, row_end) of grid.dst become those of grid.src `steps` (1 ...
  /// tiling.steps) generations on; they read rows row_begin - steps ... row_end + steps - 1
  /// of grid.src and nothing else of either buffer. `between_tiles`, where given, is called
  /// on the calling thread after each tile it computes (to progress messages meanwhile).
  void pass(const PassGrid& grid, std::int64_t steps, std::int64_t row_begin, std::int64_t row_end,
            const std::function<void()>& between_tiles = {});

  [[nodiscard]] int threads() const { return pool_.size(); }

  /// The vector logic instructions a second that all the workers issue at once, summed
  /// over them (60 ms): the rate the kernel's logic cannot pass. Nothing on a target whose
  /// kernel's instructions were not counted.
  [[nodiscard]] std::optional<double> measure_logic_rate();

private:
  struct Buffers;

  Tiling tiling_;
  std::unique_ptr<Buffers> buffers_; ///< two tile buffers per worker
  pool::WorkQueue queue_;
  pool::ThreadPool pool_;
};

/// `before`, then the `tile_words` and `tile_rows` axes with cpu-blocked's defaults.
std::vector<Axis> tile_axes(std::vector<Axis> before = {});

/// Why the generations per pass (the axis `steps_axis`) or the tile axes cannot run, or
/// nothing.
std::optional<std::string> tiling_unsupported(const std::string& steps_axis, const Params& params);

/// The tiling of `params` (steps_axis, tile_words, tile_rows) for a grid of `height` rows
/// of `row_words` words, the tiles clipped to it.
Tiling tiling_of(const Params& params, const std::string& steps_axis, std::int64_t row_words,
                 std::int64_t height);

} // namespace lifebench::cpu_blocked
