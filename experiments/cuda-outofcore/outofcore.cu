// Fujita, Nakano, Ito (seed 003) Section 8 on the GPU: a universe kept in a file is
// advanced halo_steps (T) generations per pass, one extended sub-universe at a time:
// read from the file, copied to the GPU, T generations by the project's fastest
// multi-step kernel (kernels/cuda/life_wide.cuh), its clean centre copied back and
// written to the next version of the file, which replaces the old one atomically once
// the pass is whole. overlap=on pipelines the disk and the GPU (pipeline.hpp).
#include "../cuda-lop3/packed_simulator.cuh"
#include "common/universe_file.hpp"
#include "cuda/life_wide.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/universe.hpp"
#include "pipeline.hpp"
#include "tiles.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench {
namespace {

namespace fs = std::filesystem;
namespace wide = cuda::life_wide;
namespace tiles = outofcore_tiles;
namespace pipeline = outofcore_pipeline;

constexpr int kOverlapSlots = 3; // one being read, one simulated, one written

struct Plan {
  std::optional<tiles::Partition> parts; ///< none: "auto"
  int halo_steps = 0;
  bool overlap = true;
  std::int64_t memory = 0; ///< bytes of pinned host slots at most
  wide::Config kernel;

  [[nodiscard]] int slots() const { return overlap ? kOverlapSlots : 1; }
  /// Pinned host bytes of `g`'s slots: an extended sub-universe in, its centre out.
  [[nodiscard]] std::int64_t host_bytes(const tiles::Geometry& g) const {
    return slots() * (g.extended_size() + g.tile_size()) * 8;
  }
};

Plan plan_of(const Params& params) {
  Plan plan;
  const std::string& parts = params.get("subuniverses");
  if (parts != "auto") {
    plan.parts = tiles::Partition::parse(parts);
    if (!plan.parts) {
      throw Error("subuniverses must be auto or CxR (columns x rows, e.g. 4x4), not \"" + parts +
                  "\"");
    }
  }
  const std::int64_t steps = params.get_int("halo_steps");
  if (steps < 1 || steps > 65536) throw Error("halo_steps must be 1 ... 65536");
  plan.halo_steps = static_cast<int>(steps);
  plan.overlap = params.get("overlap") == "on";
  plan.memory = params.get_bytes("memory");
  plan.kernel = wide::Config::of(params);
  return plan;
}

/// Why `g` cannot run under `plan`, or nothing.
std::optional<std::string> unsupported_geometry(const tiles::Geometry& g, const Plan& plan) {
  if (auto why = g.unsupported()) return why;
  if (g.extended_size() * 2 > std::numeric_limits<std::uint32_t>::max()) {
    return "an extended sub-universe of " + std::to_string(g.extended_size() * 64) +
           " cells is past the kernel's 32-bit word indices: use more subuniverses";
  }
  if (auto why = wide::unsupported(plan.kernel, g.extended_rows())) return why;
  if (plan.host_bytes(g) > plan.memory) {
    return "subuniverses=" + g.parts.to_string() + " needs " + std::to_string(plan.host_bytes(g)) +
           " bytes of pinned host memory (" + std::to_string(plan.slots()) +
           " slots of an extended sub-universe and its centre), over memory=" +
           std::to_string(plan.memory);
  }
  return std::nullopt;
}

/// The plan's partition of `header`'s universe: the given one, or for auto the fewest
/// square n x n sub-universes that fit the memory budget.
tiles::Geometry geometry_of(const UniverseHeader& header, const Plan& plan) {
  tiles::Geometry g{header.words_per_row(), header.problem.shape.height, {}, plan.halo_steps};
  if (plan.parts) {
    g.parts = *plan.parts;
    if (auto why = unsupported_geometry(g, plan)) throw Error(*why);
    return g;
  }
  for (int n = 1; n <= g.row_words && n <= g.height; n *= 2) {
    g.parts = {n, n};
    if (!unsupported_geometry(g, plan)) return g;
  }
  throw Error("subuniverses=auto: no n x n partition (n a power of two) of " +
              header.problem.shape.to_string() + " fits memory=" + std::to_string(plan.memory) +
              " with halo_steps=" + std::to_string(plan.halo_steps));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Pinned slots and two device buffers for one extended sub-universe, and the passes.
class OutOfCore {
public:
  OutOfCore(const tiles::Geometry& g, const Plan& plan) : g_(g), plan_(plan) {
    for (int s = 0; s < plan.slots(); ++s) {
      slots_.push_back(
          {cuda::PinnedBuffer<std::uint64_t>(static_cast<std::size_t>(g.extended_size())),
           cuda::PinnedBuffer<std::uint64_t>(static_cast<std::size_t>(g.tile_size()))});
    }
    for (auto& buffer : device_)
      buffer = cuda::DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(2 * g.extended_size()));
  }

  /// Advances `in` by `generations` into `out` (`in` itself for in place); adds each
  /// stage's seconds to `seconds` (the write stage's includes the time spent waiting for
  /// a pass to reach the disk). Each pass is written beside `out` and renamed into place;
  /// with overlap the next pass reads the new file while it is synced and renamed.
  void advance(const fs::path& in, const fs::path& out, std::uint64_t generations,
               pipeline::StageSeconds& seconds) {
    auto reader = std::make_unique<UniverseReader>(in);
    std::future<void> committing; // the pass before, on its way to the disk
    while (generations > 0) {
      UniverseHeader next = reader->header();
      if (next.problem.shape.height != g_.height || next.words_per_row() != g_.row_words) {
        throw Error("out-of-core: " + next.problem.to_string() + " is not the universe planned");
      }
      if (next.generation > std::numeric_limits<std::uint64_t>::max() - generations) {
        throw Error("out-of-core: generation " + std::to_string(next.generation) +
                    " cannot be advanced " + std::to_string(generations) + " generations");
      }
      const auto steps =
          std::min<std::uint64_t>(static_cast<std::uint64_t>(g_.halo_steps), generations);
      next.generation += steps;
      auto file = std::make_unique<UniverseBlockWriter>(out, next);
      const pipeline::StageSeconds pass = pipeline::run(
          g_.count(), plan_.overlap, plan_.slots(),
          {.read = [&](int k, int s) { tiles::read_extended(*reader, g_, k, input(s)); },
           .simulate = [&](int, int s) { simulate(s, steps); },
           .write =
               [&](int k, int s) {
                 file->write(
                     g_.first_row(k), g_.tile_rows(), g_.first_word(k), g_.tile_words(),
                     std::span<const std::uint64_t>(slots_[s].out.data(), slots_[s].out.size()));
               }});
      seconds.read += pass.read;
      seconds.simulate += pass.simulate;
      seconds.write += pass.write;
      generations -= steps;

      const auto start = std::chrono::steady_clock::now();
      file->finish();
      if (committing.valid()) committing.get(); // passes reach `out` in order
      if (generations > 0) reader = std::make_unique<UniverseReader>(file->temporary());
      if (plan_.overlap && generations > 0) {
        committing = std::async(std::launch::async, [file = std::move(file)] { file->commit(); });
      } else {
        file->commit();
      }
      seconds.write += seconds_since(start);
    }
  }

private:
  struct Slot {
    cuda::PinnedBuffer<std::uint64_t> in;  ///< extended sub-universe
    cuda::PinnedBuffer<std::uint64_t> out; ///< its clean centre
  };

  [[nodiscard]] std::span<std::uint64_t> input(int s) const {
    return {slots_[s].in.data(), slots_[s].in.size()};
  }

  /// Slot s's extended sub-universe to the GPU, `steps` generations, its centre back.
  void simulate(int s, std::uint64_t steps) {
    const auto words32 = static_cast<unsigned>(2 * g_.extended_words());
    const auto rows = static_cast<unsigned>(g_.extended_rows());
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(device_[0].data(), slots_[s].in.data(),
                                        slots_[s].in.bytes(), cudaMemcpyHostToDevice,
                                        stream_.get()));
    const int current = wide::advance(plan_.kernel, {device_[0].data(), device_[1].data()}, 0,
                                      words32, rows, steps, stream_.get());
    const std::uint32_t* centre = device_[current].data() +
                                  static_cast<std::size_t>(g_.halo_steps) * words32 +
                                  2 * g_.halo_words();
    LIFEBENCH_CUDA_CALL(cudaMemcpy2DAsync(
        slots_[s].out.data(), static_cast<std::size_t>(g_.tile_words()) * 8, centre,
        std::size_t{words32} * 4, static_cast<std::size_t>(g_.tile_words()) * 8,
        static_cast<std::size_t>(g_.tile_rows()), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }

  tiles::Geometry g_;
  Plan plan_;
  std::vector<Slot> slots_;
  std::array<cuda::DeviceBuffer<std::uint32_t>, 2> device_;
  cuda::Stream stream_;
};

/// The universe in a file of its own in `folder`, removed with the simulator.
class OutOfCoreSimulator final : public Simulator {
public:
  OutOfCoreSimulator(const Problem& problem, const Params& params)
      : plan_(plan_of(params)), geometry_(geometry_of(UniverseHeader{problem, 0}, plan_)),
        run_(geometry_, plan_), file_(problem, params) {}

  void upload(const Grid& grid) override { file_.upload(grid); }
  void advance(std::uint64_t generations) override {
    seconds_ = {};
    run_.advance(file_.path(), file_.path(), generations, seconds_);
  }
  Grid download() override { return file_.download(); }

  [[nodiscard]] std::map<std::string, double> phase_seconds() const override {
    return {{"read", seconds_.read}, {"simulate", seconds_.simulate}, {"write", seconds_.write}};
  }
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    auto info = cuda::device_info();
    file_.describe(info);
    info["subuniverses"] = geometry_.parts.to_string();
    info["extended_subuniverse_bytes"] = std::to_string(geometry_.extended_size() * 8);
    info["pinned_host_bytes"] = std::to_string(plan_.host_bytes(geometry_));
    return info;
  }

private:
  Plan plan_;
  tiles::Geometry geometry_;
  OutOfCore run_;
  outofcore::UniverseFile file_;
  pipeline::StageSeconds seconds_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (!cuda_packed::is_conway(problem.rule)) {
    return "B3/S23 only: the kernel's LOP3 sequence computes exactly Conway's rule";
  }
  if (problem.shape.width % 64 != 0) {
    return "width must be a multiple of 64: the kernel wraps the universe file's rows of "
           "64-bit words around whole";
  }
  if (problem.boundary != Boundary::torus) {
    return "torus only: the sub-universes' halos are read wrapped around, and the kernel "
           "several generations at a time would bring cells to life outside a dead boundary";
  }
  try {
    const Plan plan = plan_of(params);
    (void)geometry_of(UniverseHeader{problem, 0}, plan);
  } catch (const Error& error) {
    return error.what();
  }
  return outofcore::folder_unsupported(params);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-outofcore",
    .family = "square",
    .backend = "cuda",
    .source = "seed 003 Section 8 and Table 3, a universe larger than memory streamed from disk "
              "through the GPU; overlap=on is ours",
    .technique = "universe file advanced halo_steps generations per pass, sub-universes extended "
                 "by halo_steps cells read, simulated on the GPU by cuda-life-wide's kernel and "
                 "their centres written back; overlap: reads, GPU and writes pipelined",
    .axes =
        [] {
          auto axes = lifebench::cuda::life_wide::fastest_axes();
          axes.insert(axes.begin(),
                      {{.name = "subuniverses",
                        .default_value = "auto",
                        .allowed = {},
                        .description = "CxR: sub-universes across and down (the paper's B = 16 is "
                                       "4x4, 1xR are bands of whole rows); auto: the fewest n x n "
                                       "that fit memory"},
                       {.name = "halo_steps",
                        .default_value = "1024",
                        .allowed = {},
                        .description = "T: generations per pass over the file, and the cells each "
                                       "sub-universe is extended by, 1 ... 65536"},
                       {.name = "overlap",
                        .default_value = "on",
                        .allowed = {"on", "off"},
                        .description = "on: a reader and a writer thread overlap the disk with the "
                                       "GPU; off: read, simulate, write in turn (the paper)"},
                       {.name = "memory",
                        .default_value = "4G",
                        .allowed = {},
                        .description = "pinned host memory budget for the sub-universe slots "
                                       "(bytes, or with K, M, G)"},
                       lifebench::outofcore::folder_axis()});
          return axes;
        }(),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::unsupported,
    .verify_generations =
        [](const lifebench::Params& params) {
          // Two whole passes and a partial third.
          return static_cast<std::uint64_t>(2 * params.get_int("halo_steps") + 1);
        },
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::OutOfCoreSimulator>(problem, params);
    },
    .advance_file =
        [](const std::filesystem::path& in, const std::filesystem::path& out,
           std::uint64_t generations, const lifebench::Params& params) {
          const lifebench::Plan plan = lifebench::plan_of(params);
          const lifebench::tiles::Geometry g =
              lifebench::geometry_of(lifebench::UniverseReader(in).header(), plan);
          lifebench::outofcore_pipeline::StageSeconds ignored;
          lifebench::OutOfCore(g, plan).advance(in, out, generations, ignored);
        }})
