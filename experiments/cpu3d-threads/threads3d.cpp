// 3D life on CPU threads with the bit logic of cuda3d-bitsliced: one bit per
// cell, 32 cells per 32-bit word along x, the 27-cell count by bit-sliced adders
// (kernels/common/bitsliced3d.hpp). Each thread runs the GPU thread's column
// walk along z for its share of (z segment, row strip) pairs, every word of the
// strip in turn so that the rows stay in the cache. A pool of threads, started
// once, runs every generation; the two grids are swapped by index.
#include "common/bitsliced3d.hpp"
#include "cpu/thread_pool.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench {
namespace {

namespace b3 = bitsliced3d;

class Threads3DSimulator final : public Simulator {
public:
  Threads3DSimulator(const Problem& problem, const Params& params)
      : problem_(problem), cube_{static_cast<int>(problem.shape.width),
                                 static_cast<int>(problem.shape.width / b3::word_bits)},
        rows_(static_cast<int>(params.get_int("rows"))),
        planes_(static_cast<int>(params.get_int("planes"))), pool_(pool::threads_of(params)) {
    const std::size_t words = cube_.plane_words() * static_cast<std::size_t>(cube_.side);
    grids_[0].resize(words);
    grids_[1].resize(words);
  }

  void upload(const Grid& grid) override { grids_[current_] = pack_rows<b3::Word>(grid); }

  Grid download() override {
    Grid grid(problem_.shape);
    unpack_rows<b3::Word>(std::span<const b3::Word>(grids_[current_]), grid);
    return grid;
  }

  void advance(std::uint64_t generations) override {
    b3::with_variant(problem_.boundary == Boundary::torus, rows_, problem_.rule.birth,
                     problem_.rule.survive, [&](auto torus, auto rows, auto rule) {
                       for (std::uint64_t g = 0; g < generations; ++g) {
                         step<decltype(torus)::value, decltype(rows)::value>(rule);
                         current_ = 1 - current_;
                       }
                     });
  }

private:
  /// One generation: the (segment, strip) pairs in contiguous shares, one per thread.
  template <bool Torus, int Rows, class RuleFn> void step(const RuleFn& rule) {
    const b3::Word* in = grids_[current_].data();
    b3::Word* out = grids_[1 - current_].data();
    const int strips = cube_.side / Rows;
    const int segments = (cube_.side + planes_ - 1) / planes_;
    const std::int64_t items = std::int64_t{strips} * segments;
    const int threads = pool_.size();
    pool_.run([&](int index) {
      const std::int64_t first = items * index / threads;
      const std::int64_t last = items * (index + 1) / threads;
      for (std::int64_t item = first; item < last; ++item) {
        const int z0 = static_cast<int>(item / strips) * planes_;
        const int z1 = std::min(z0 + planes_, cube_.side);
        const int y0 = static_cast<int>(item % strips) * Rows;
        for (int w = 0; w < cube_.words; ++w) {
          b3::column_walk<Torus, Rows>(in, out, cube_, w, y0, z0, z1, rule);
        }
      }
    });
  }

  Problem problem_;
  b3::Cube cube_;
  int rows_;
  int planes_;
  std::array<std::vector<b3::Word>, 2> grids_;
  int current_ = 0;
  pool::ThreadPool pool_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  const Shape& shape = problem.shape;
  if (const char* reason = b3::unsupported_shape(shape.width, shape.height, shape.depth)) {
    return std::string(reason);
  }
  if (auto reason = pool::threads_unsupported(params)) return reason;
  if (params.get_int("planes") < 1) return std::string("planes must be at least 1");
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cpu3d-threads", "3d", "cpu",
              "ours (CPU counterpart of cuda3d-bitsliced, for seed 001's 3D life)",
              "one bit per cell, bit-sliced 27-cell sums (x, then y, then z with a rolling "
              "window of plane sums), the GPU thread's column walk on a pool of CPU threads"},
    .axes = {lifebench::pool::threads_axis("worker threads, the calling one included", "all"),
             {.name = "rows",
              .default_value = "2", // 4 runs out of x86-64's 16 registers (measured 25% slower)
              .allowed = {"1", "2", "4"},
              .description = "rows of 32-cell words one column walk updates (as cuda3d-bitsliced)"},
             {.name = "planes",
              .default_value = "32",
              .allowed = {},
              .description = "planes one column walk updates along z (the last walk may have "
                             "fewer)"}},
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::Threads3DSimulator>})
