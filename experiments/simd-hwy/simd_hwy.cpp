// Seed 000's "SIMD" and "SIMD Multi-threaded" versions with Google Highway: rows of
// bit-packed 64-bit words (one bit per cell), a vector of consecutive words at a
// time, the horizontal neighbours aligned by one-bit shifts whose carried bits cross
// lanes (a lane rotation, as the blog's shl_1), and the blog's bit adder counter
// (four full adders and one half adder) for the neighbour count (step_rows-inl.hpp).
// The kernel is compiled for every SIMD target (foreach_target.h), the best one the
// machine supports is chosen at run time (HWY_DYNAMIC_DISPATCH). With threads > 1 the rows
// are split into equal groups, one per worker of a pool that lives as long as the
// simulator.
#include "cpu/copy_ceiling.hpp"
#include "cpu/packed_grids.hpp"
#include "cpu/thread_pool.hpp"
#include "lifebench/experiment.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_hwy.cpp"
#include <hwy/aligned_allocator.h>
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>
// The kernel, for each target foreach_target.h re-includes this file for.
#include "step_rows-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace lifebench::simd_hwy::HWY_NAMESPACE {

const char* TargetName() {
  return hwy::TargetName(HWY_TARGET);
}

} // namespace lifebench::simd_hwy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lifebench::simd_hwy {
HWY_EXPORT(StepRows);
HWY_EXPORT(TargetName);

namespace {

class SimdSimulator final : public Simulator {
public:
  SimdSimulator(const Problem& problem, const Params& params)
      : problem_(problem), grids_(problem.shape),
        zero_row_(simd::allocate_words(grids_.row_words())), pool_(pool::threads_of(params)) {
    step_ = [this](int worker) {
      const auto [begin, end] = pool::share(problem_.shape.height, worker, pool_.size());
      const RowsJob job{grids_.cells(),
                        grids_.next(),
                        zero_row_.get(),
                        grids_.row_words(),
                        problem_.shape.height,
                        problem_.boundary == Boundary::torus,
                        begin,
                        end};
      HWY_DYNAMIC_DISPATCH(StepRows)(job);
    };
  }

  void upload(const Grid& grid) override { grids_.upload(grid); }
  Grid download() override { return grids_.download(); }

  void advance(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      pool_.run(step_);
      grids_.swap();
    }
  }

  /// After the timing: the threads' copy bandwidth, the ceiling of this memory-bound kernel.
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    return {{"hwy_target", HWY_DYNAMIC_DISPATCH(TargetName)()},
            {"threads", std::to_string(pool_.size())},
            {"copy_bandwidth_measured_gb_per_s",
             std::to_string(pool::measure_copy_bandwidth(pool_) * 1e-9)}};
  }

  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return grids_.bytes_read_and_written();
  }

private:
  Problem problem_;
  simd::PackedGrids grids_;
  hwy::AlignedFreeUniquePtr<std::uint64_t[]> zero_row_;
  mutable pool::ThreadPool pool_; ///< device() measures the copy bandwidth on its workers
  std::function<void(int)> step_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = simd::b3s23_bits_unsupported(problem)) return reason;
  return pool::threads_unsupported(params);
}

} // namespace
} // namespace lifebench::simd_hwy

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"simd-hwy", "square", "simd",
              "seed 000 \"Embracing the Spectacle of Parallelism Using SIMD and Multi-Threading\"",
              "bit per cell, Highway vectors of 64-bit words, cross-lane shifts, bit adder "
              "counter; rows split over a reused thread pool"},
    .axes = {lifebench::pool::threads_axis("threads; rows split into equal groups")},
    .unsupported = lifebench::simd_hwy::unsupported,
    .make = lifebench::make_simulator<lifebench::simd_hwy::SimdSimulator>})
#endif // HWY_ONCE
