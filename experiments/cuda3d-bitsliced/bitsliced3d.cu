// 3D life bit-sliced on the GPU: one bit per cell, 32 cells per 32-bit word
// along x, the 27-cell count by bit-sliced adders, separable (x, then y, then
// z). One thread walks a column of `rows` words along z for `planes` planes,
// keeping the xy-sums of three planes (kernels/common/bitsliced3d.hpp: the same
// code cpu3d-threads runs on the host), or of four with two outputs a step sharing
// a pair of plane sums (pair_walk.hpp, walk = pairs). One generation a launch, or two
// (two_steps.cuh, steps_per_launch = 2).
#include "common/bitsliced3d.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/packed.hpp"
#include "pair_walk.hpp"
#include "two_steps.cuh"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench {
namespace {

namespace b3 = bitsliced3d;

constexpr int kBlock = 128;   // threads per block
constexpr int kMinPlanes = 4; // shorter walks recompute too many xy-sums

/// The lanes of a warp that `threads` threads fill (all of them from 32 on): a block of
/// fewer shuffles within its own lanes.
constexpr unsigned lanes_of(int threads) {
  return threads >= 32 ? 0xffffffffU : (1U << threads) - 1U;
}

/// Thread (x, blockIdx.y): word x % words of strip x / words, planes of segment blockIdx.y.
/// Shuffle: the blocks cover the columns exactly and `lanes` are a warp's launched lanes.
/// Pairs: the pair walk (pair_walk.hpp), else the three-plane walk of bitsliced3d.hpp.
template <bool Torus, int Rows, bool Shuffle, bool Pairs, class RuleFn>
__global__ void __launch_bounds__(kBlock)
    step_kernel(const b3::Word* __restrict__ in, b3::Word* __restrict__ out, b3::Cube cube,
                int columns, int planes, RuleFn rule, unsigned lanes) {
  const int column = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (column >= columns) return;
  const int w = column % cube.words;
  const int y0 = column / cube.words * Rows;
  const int z0 = static_cast<int>(blockIdx.y) * planes;
  const int z1 = min(z0 + planes, cube.side);
  if constexpr (Pairs) {
    b3::pairs::column_walk<Torus, Rows, Shuffle>(in, out, cube, w, y0, z0, z1, rule, lanes);
  } else {
    b3::column_walk<Torus, Rows, Shuffle>(in, out, cube, w, y0, z0, z1, rule, lanes);
  }
}

/// Planes per walk for planes = auto. Every walk does the same work, so blocks run in
/// rounds of the resident ones and a partly filled last round idles the rest: the
/// choice minimises rounds x walk_cost(planes), the cost of a walk of that many planes
/// (its planes and the extra plane sums it starts with), over multiples of `step` (a walk
/// in steps of two planes computes an odd walk's last plane for nothing). At least
/// kMinPlanes, which also makes the walk's unrolled loop run on every cube.
template <class Kernel, class Cost>
int auto_planes(Kernel* kernel, int block, std::int64_t blocks_per_segment, int side, int step,
                Cost walk_cost) {
  int per_sm = 0;
  LIFEBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  const std::int64_t resident = std::max(1, cuda::sm_count() * per_sm);
  int best = side;
  double best_time = 0;
  for (int planes = kMinPlanes; planes <= side; planes += step) {
    const std::int64_t segments = (side + planes - 1) / planes;
    const std::int64_t rounds = (blocks_per_segment * segments + resident - 1) / resident;
    const double time = static_cast<double>(rounds) * walk_cost(planes);
    if (planes == kMinPlanes || time < best_time) {
      best = planes;
      best_time = time;
    }
  }
  return best;
}

/// bytes_per_generation(): each bit read once and written once a launch.
class BitSliced3DSimulator final : public cuda::BufferedSimulator<cuda::PackedRows<b3::Word>> {
public:
  BitSliced3DSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem), cube_{static_cast<int>(problem.shape.width),
                                          static_cast<int>(problem.shape.width / b3::word_bits)},
        rows_(static_cast<int>(params.get_int("rows"))),
        pairs_(params.get("walk") == "pairs" && cube_.side <= b3::pairs::max_side),
        two_steps_(params.get("steps_per_launch") == "2" && cube_.whole_rows_in_warp()),
        planes_(params.get("planes") == "auto" ? 0 : static_cast<int>(params.get_int("planes"))),
        two_planes_(planes_) {
    // Choose the planes that are auto; nothing is launched.
    dispatch(nullptr, nullptr, 0);
    if (two_steps_) dispatch_two(nullptr, nullptr);
  }

private:
  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    std::map<std::string, std::string> extras{
        {"planes_per_walk", std::to_string(two_steps_ ? two_planes_ : planes_)},
        {"walk", pairs_ ? "pairs" : "triples"},
        {"steps_per_launch", two_steps_ ? "2" : "1"}};
    if (problem().rule.birth == b3::RuleB6S567::birth &&
        problem().rule.survive == b3::RuleB6S567::survive) {
      extras["instructions_per_cell_update"] = number_text(lop3_per_cell_update());
    }
    return extras;
  }

  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return (two_steps_ ? 1.0 : 2.0) * static_cast<double>(state_bytes());
  }

  /// LOP3 per cell update of B6/S567 for the report's fraction of bound, as written (the
  /// README's counts; shifts, shuffles and addresses come on top). Per thread and plane,
  /// the plane sums of Rows rows take 2 (Rows + 2) + 4 Rows; an output row takes 18
  /// (pairs: a pair of plane sums, 4, serves two; the pair plus one plane sum with the
  /// fused rule, 16) or 22 (triples: 16 and the rule's 6). A walk of n planes sums n + 2
  /// planes. Two steps a launch go two planes a step, m = n rounded up to even: they sum
  /// m + 4 planes of the grid, compute m + 2 of the first generation, sum those and
  /// compute m of the second, in blocks of 32 rows for 30 written.
  [[nodiscard]] double lop3_per_cell_update() const {
    const int side = cube_.side;
    const int rows = two_steps_ ? b3::two_steps::kRows : rows_;
    const int planes = two_steps_ ? two_planes_ : planes_;
    const double plane_sums = 2.0 * (rows + 2) + 4.0 * rows;
    const double output = (pairs_ ? 18.0 : 22.0) * rows;
    double per_thread = 0; // over every segment's walk
    for (int z0 = 0; z0 < side; z0 += planes) {
      const int n = std::min(planes, side - z0);
      const int m = n + n % 2;
      per_thread +=
          two_steps_ ? plane_sums * (m + 4) + output * (m + 2) + plane_sums * (m + 2) + output * m
                     : plane_sums * (n + 2) + output * n;
    }
    const double threads = two_steps_ ? static_cast<double>(b3::two_steps::block_rows(side)) *
                                            b3::two_steps::kStrips * cube_.words
                                      : static_cast<double>(cube_.words) * (side / rows);
    const double updates = static_cast<double>(side) * side * side * (two_steps_ ? 2 : 1);
    return threads * per_thread / updates;
  }

  void launch(std::uint64_t generations) override {
    launches(generations, [&](const b3::Word* in, b3::Word* out, std::uint64_t left) {
      if (two_steps_ && left >= 2) {
        dispatch_two(in, out);
        return 2;
      }
      dispatch(in, out, 1);
      return 1;
    });
  }

  /// Two generations in one launch (two_steps.cuh); with in == nullptr it only chooses
  /// two_planes_ when it is auto.
  void dispatch_two(const b3::Word* in, b3::Word* out) {
    b3::with_variant(torus(), 4, problem().rule.birth, problem().rule.survive,
                     [&](auto torus, auto /*rows*/, auto rule) {
                       constexpr bool kTorus = decltype(torus)::value;
                       step_two<kTorus>(in, out, stream(), rule);
                     });
  }

  template <bool Torus, class RuleFn>
  void step_two(const b3::Word* in, b3::Word* out, cudaStream_t stream, const RuleFn& rule) {
    namespace ts = b3::two_steps;
    const int block = ts::kStrips * cube_.words;
    const unsigned lanes = lanes_of(block);
    const int blocks_down = ts::block_rows(cube_.side);
    if (two_planes_ == 0) {
      // A plane of both generations takes 200 LOP3 a thread (lop3_per_cell_update()); a
      // walk's extra planes, 4 plane sums of the grid and 2 planes of the first generation
      // with their sums, take 312.
      two_planes_ = auto_planes(&ts::step_kernel<Torus, RuleFn>, block, blocks_down, cube_.side, 2,
                                [](int planes) { return planes + 312.0 / 200.0; });
    }
    if (in == nullptr) return;
    const dim3 grid(static_cast<unsigned>(blocks_down),
                    static_cast<unsigned>((cube_.side + two_planes_ - 1) / two_planes_));
    ts::step_kernel<Torus><<<grid, block, 0, stream>>>(in, out, cube_, two_planes_, rule, lanes);
  }

  /// `generations` (1, or 0 to choose planes_ only) with the kernel for the boundary, the
  /// rows and the rule.
  void dispatch(const b3::Word* in, b3::Word* out, std::uint64_t generations) {
    b3::with_variant(
        torus(), rows_, problem().rule.birth, problem().rule.survive,
        [&](auto torus, auto rows, auto rule) {
          constexpr bool kTorus = decltype(torus)::value;
          constexpr int kRows = decltype(rows)::value;
          const auto with_walk = [&](auto shuffle) {
            constexpr bool kShuffle = decltype(shuffle)::value;
            if (pairs_) {
              step<kTorus, kRows, kShuffle, true>(in, out, generations, stream(), rule);
            } else {
              step<kTorus, kRows, kShuffle, false>(in, out, generations, stream(), rule);
            }
          };
          if (cube_.whole_rows_in_warp()) { // groups of `words` lanes; grid sizes powers of two
            with_walk(std::true_type{});
          } else {
            with_walk(std::false_type{});
          }
        });
  }

  /// One generation, or none (generations == 0) to choose planes_ only.
  template <bool Torus, int Rows, bool Shuffle, bool Pairs, class RuleFn>
  void step(const b3::Word* in, b3::Word* out, std::uint64_t generations, cudaStream_t stream,
            const RuleFn& rule) {
    const int columns = cube_.words * (cube_.side / Rows);
    // Shuffle: one exact block when there are fewer columns than kBlock (a power of two).
    const int block = Shuffle ? std::min(kBlock, columns) : kBlock;
    const unsigned lanes = lanes_of(columns);
    if (planes_ == 0) {
      planes_ = auto_planes(&step_kernel<Torus, Rows, Shuffle, Pairs, RuleFn>, block,
                            (columns + block - 1) / block, cube_.side, 1,
                            // a walk's two extra plane sums: a quarter of a plane's work each
                            [](int planes) { return planes + 0.5; });
    }
    if (generations == 0) return;
    const dim3 grid(static_cast<unsigned>((columns + block - 1) / block),
                    static_cast<unsigned>((cube_.side + planes_ - 1) / planes_));
    step_kernel<Torus, Rows, Shuffle, Pairs>
        <<<grid, block, 0, stream>>>(in, out, cube_, columns, planes_, rule, lanes);
  }

  b3::Cube cube_;
  int rows_;
  bool pairs_;     ///< walk = pairs and a side the pair walk takes
  bool two_steps_; ///< steps_per_launch = 2 and a side two_steps.cuh takes
  int planes_;     ///< planes a walk, one generation a launch
  int two_planes_; ///< two a launch
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  const Shape& shape = problem.shape;
  if (const char* reason = b3::unsupported_shape(shape.width, shape.height, shape.depth)) {
    return std::string(reason);
  }
  if (params.get("steps_per_launch") == "2" &&
      (params.get("rows") != "4" || params.get("walk") != "pairs")) {
    return std::string("steps_per_launch = 2 walks 4 rows a thread in pairs (rows = 4, walk = "
                       "pairs)");
  }
  const std::string& planes = params.get("planes");
  if (planes != "auto") {
    const std::int64_t value = params.get_int("planes");
    if (value < 1) return std::string("planes must be 'auto' or at least 1");
    if ((shape.depth + value - 1) / value > cuda::kMaxGridYZ) {
      return "planes must be at least " +
             std::to_string((shape.depth + cuda::kMaxGridYZ - 1) / cuda::kMaxGridYZ) +
             " (one block row per walk along z: CUDA's grid y limit)";
    }
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda3d-bitsliced", "3d", "cuda",
              "ours (seed 001's 3D life, B6/S567 on an M^3 torus; beats its v2 kernel)",
              "one bit per cell, 32 cells per word along x; bit-sliced 27-cell sums, x by "
              "funnel shifts, then y, then z with a rolling window of plane sums; one thread "
              "walks a column along z; two generations a launch, the second a step behind "
              "the first, strips trading edge rows through shared memory"},
    .axes = {{.name = "rows",
              .default_value = "4",
              .allowed = {"1", "2", "4"},
              .description = "rows of 32-cell words one thread updates in each plane"},
             {.name = "planes",
              .default_value = "auto",
              .allowed = {},
              .description = "planes one thread walks along z; auto: the fewest rounds of "
                             "resident blocks times planes per walk, at least 4"},
             {.name = "walk",
              .default_value = "pairs",
              .allowed = {"pairs", "triples"},
              .description = "along z: pairs, two outputs a step share the sum of two plane "
                             "sums (sides up to 4096, larger ones walk in triples); triples, "
                             "each output adds three plane sums"},
             lifebench::steps_per_launch_axis("2", {"1", "2"},
                                              "generations a launch: 2 reads and writes the grid "
                                              "once for two (sides of 1, 2, 4 ... 32 words, "
                                              "others take 1)")},
    .unavailable = lifebench::cuda::unavailable_for<
        &lifebench::step_kernel<true, 4, true, true, lifebench::bitsliced3d::RuleB6S567>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::BitSliced3DSimulator>})
