// Fujita, Nakano, Ito (seed 003) Section 8 on the GPU: a universe kept in a file is
// advanced halo_steps (T) generations per pass, one extended sub-universe at a time:
// read from the file, copied to the GPU, T generations by the project's fastest
// multi-step kernel (kernels/cuda/life_wide.cuh), its clean centre copied back and
// written to the next version of the file, which replaces the old one atomically once
// the pass is whole. overlap=on pipelines the disk and the GPU (pipeline.hpp);
// scheme=skewed cuts bands with no halo instead (bands.hpp). Both are ours.
#include "bands.hpp"
#include "common/universe_file.hpp"
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_simulator.cuh"
#include "cuda/packed_simulator.cuh"
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
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace lifebench {
namespace {

namespace fs = std::filesystem;
namespace wide = cuda::life_wide;
namespace tiles = outofcore_tiles;
namespace bands = outofcore_bands;
namespace pipeline = outofcore_pipeline;

constexpr int kOverlapSlots = 3; // one being read, one simulated, one written
/// Skewed bands: one being read, two on the GPU (one copied while the other computes), one
/// written.
constexpr int kOverlapBandSlots = 4;
/// A pass said on standard error at most this often (pipeline::PassLog).
constexpr std::chrono::seconds kSayPassesEvery{10};

/// halo: the paper's sub-universes extended by T cells; skewed: bands with no halo (ours).
enum class Scheme { halo, skewed };

struct Plan {
  Scheme scheme = Scheme::halo;
  std::optional<tiles::Partition> parts; ///< none: "auto"
  int halo_steps = 0;
  bool overlap = true;
  outofcore::Cache cache = outofcore::Cache::kept; ///< what each pass does with the page cache
  std::int64_t memory = 0;                         ///< bytes of pinned host slots at most
  wide::Config kernel;
  bool fitted_rows = false; ///< rows_per_thread=auto: kernel.rows chosen with the layout

  [[nodiscard]] int slots() const {
    if (!overlap) return 1;
    return scheme == Scheme::skewed ? kOverlapBandSlots : kOverlapSlots;
  }
  /// Universe files on the disk at once: the file and the pass written beside it; with
  /// overlap, the pass before is still on its way to the disk when the next one's space is
  /// reserved.
  [[nodiscard]] int universe_files() const { return overlap ? 3 : 2; }
};

Plan plan_of(const Params& params) {
  Plan plan;
  plan.scheme = params.get("scheme") == "skewed" ? Scheme::skewed : Scheme::halo;
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
  plan.cache = outofcore::cache_of(params);
  plan.memory = params.get_bytes("memory");
  // With rows_per_thread=auto, cuda-life-wide's rows until planned() chooses them for the
  // layout.
  plan.fitted_rows = wide::fitted_rows(params);
  plan.kernel = wide::config_before_fitting(params);
  return plan;
}

/// How a pass cuts the universe: halo-extended sub-universes or skewed bands.
using Layout = std::variant<tiles::Geometry, bands::Bands>;

/// Words of one pinned host slot: an extended sub-universe (its centre comes back into
/// it) or a band (the prelude comes in band-sized chunks).
std::int64_t slot_words(const Layout& layout) {
  if (const auto* g = std::get_if<tiles::Geometry>(&layout)) return g->extended_size();
  return std::get<bands::Bands>(layout).slot_words();
}

/// Sets of band buffers on the GPU: two with overlap (a band copied while the next computes).
int band_buffer_sets(const Plan& plan) {
  return plan.overlap ? 2 : 1;
}

/// Words of the device buffers: two extended sub-universes, or the sets of two band
/// buffers and the handoff.
std::int64_t device_words(const Layout& layout, const Plan& plan) {
  if (const auto* g = std::get_if<tiles::Geometry>(&layout)) return 2 * g->extended_size();
  return std::get<bands::Bands>(layout).device_words(band_buffer_sets(plan));
}

std::int64_t host_bytes(const Layout& layout, const Plan& plan) {
  return plan.slots() * slot_words(layout) * 8;
}

/// The partition's name, for messages and results.
std::string partition_of(const Layout& layout) {
  if (const auto* g = std::get_if<tiles::Geometry>(&layout)) return g->parts.to_string();
  return "1x" + std::to_string(std::get<bands::Bands>(layout).count);
}

/// Why `layout` cannot run under `plan`, or nothing.
std::optional<std::string> unsupported_layout(const Layout& layout, const Plan& plan) {
  if (const auto* g = std::get_if<tiles::Geometry>(&layout)) {
    if (auto why = g->unsupported()) return why;
    if (auto why = wide::unsupported(plan.kernel, 2 * g->extended_words(), g->extended_rows())) {
      return why;
    }
  } else {
    const auto& b = std::get<bands::Bands>(layout);
    if (auto why = b.unsupported()) return why;
    if (auto why = wide::unsupported(plan.kernel, 2 * b.row_words, b.buffer_rows())) return why;
  }
  if (host_bytes(layout, plan) > plan.memory) {
    return "subuniverses=" + partition_of(layout) + " needs " +
           std::to_string(host_bytes(layout, plan)) + " bytes of pinned host memory (" +
           std::to_string(plan.slots()) + " slots of " + std::to_string(slot_words(layout) * 8) +
           " bytes), over memory=" + std::to_string(plan.memory);
  }
  return cuda::beyond_free_memory(static_cast<std::size_t>(device_words(layout, plan)) * 8,
                                  "subuniverses=" + partition_of(layout) + "'s GPU buffers");
}

/// `parts` of `header`'s universe under `plan`'s scheme.
Layout layout_with(const UniverseHeader& header, const Plan& plan, const tiles::Partition& parts) {
  if (plan.scheme == Scheme::halo) {
    return tiles::Geometry{header.words_per_row(), header.problem.shape.height, parts,
                           plan.halo_steps};
  }
  return bands::Bands{.row_words = header.words_per_row(),
                      .height = header.problem.shape.height,
                      .count = parts.rows,
                      .steps = plan.halo_steps,
                      .max_launch = plan.kernel.steps};
}

/// The plan's layout of `header`'s universe: the given partition, or for auto the
/// fewest n x n sub-universes (halo) or 1 x n bands (skewed), n a power of two, that fit
/// the memory budget.
Layout layout_of(const UniverseHeader& header, const Plan& plan) {
  if (plan.parts) {
    if (plan.scheme == Scheme::skewed && plan.parts->columns != 1) {
      throw Error("scheme=skewed cuts the universe into bands of whole rows: subuniverses must "
                  "be 1xR, not " +
                  plan.parts->to_string());
    }
    const Layout layout = layout_with(header, plan, *plan.parts);
    if (auto why = unsupported_layout(layout, plan)) throw Error(*why);
    return layout;
  }
  const std::int64_t height = header.problem.shape.height;
  const bool squares = plan.scheme == Scheme::halo;
  for (int n = 1; n <= height && (!squares || n <= header.words_per_row()); n *= 2) {
    const tiles::Partition parts{squares ? n : 1, n};
    const Layout layout = layout_with(header, plan, parts);
    if (!unsupported_layout(layout, plan)) return layout;
  }
  throw Error("subuniverses=auto: no partition into n x n sub-universes or 1 x n bands (n a "
              "power of two) of " +
              header.problem.shape.to_string() + " fits memory=" + std::to_string(plan.memory) +
              " with halo_steps=" + std::to_string(plan.halo_steps));
}

/// A plan and its layout of a universe.
struct Planned {
  Plan plan;
  Layout layout;
};

/// The parameters' plan and its layout of `header`'s universe; with rows_per_thread=auto,
/// the rows that make the cheapest launch on this device's SMs for that layout's launches
/// (an extended sub-universe, or a band and the rows it takes below it: far shorter than
/// the universes the fixed values suit).
Planned planned(const Params& params, const UniverseHeader& header) {
  Planned p{plan_of(params), {}};
  p.layout = layout_of(header, p.plan);
  if (!p.plan.fitted_rows) return p;
  std::int64_t words = 0;
  std::int64_t rows = 0;
  if (const auto* g = std::get_if<tiles::Geometry>(&p.layout)) {
    words = 2 * g->extended_words();
    rows = g->extended_rows();
  } else {
    const auto& b = std::get<bands::Bands>(p.layout);
    words = 2 * b.row_words;
    rows = b.launch_rows();
  }
  p.plan.kernel = wide::config_for_grid(params, words, rows);
  if (auto why = unsupported_layout(p.layout, p.plan)) throw Error(*why);
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// What a pass does with each of its items: read it from the file into a pinned slot,
/// advance it on the GPU (its result comes back into the slot), write it to the next
/// version of the file.
class Passes {
public:
  virtual ~Passes() = default;
  Passes() = default;
  Passes(const Passes&) = delete;
  Passes& operator=(const Passes&) = delete;

  [[nodiscard]] virtual int items(int steps) const = 0;
  virtual void read(UniverseReader& file, int k, int steps, std::span<std::uint64_t> slot) = 0;
  virtual void simulate(int k, int steps, std::span<std::uint64_t> slot) = 0;
  /// Waits until item k's simulation has ended, its result in its slot, where simulate() only
  /// begins it (settles()).
  virtual void settle(int /*k*/) {}
  [[nodiscard]] virtual bool settles() const { return false; }
  virtual void write(UniverseBlockWriter& file, int k, int steps,
                     std::span<const std::uint64_t> slot) = 0;
};

/// The paper's passes: each sub-universe extended by T cells, its centre written back.
class HaloPasses final : public Passes {
public:
  HaloPasses(const tiles::Geometry& g, const wide::Config& kernel)
      : g_(g), kernel_(kernel), device_{cuda::DeviceBuffer<std::uint32_t>(buffer_words32()),
                                        cuda::DeviceBuffer<std::uint32_t>(buffer_words32())} {}

  [[nodiscard]] int items(int) const override { return g_.count(); }
  void read(UniverseReader& file, int k, int, std::span<std::uint64_t> slot) override {
    tiles::read_extended(file, g_, k, slot.first(static_cast<std::size_t>(g_.extended_size())));
  }
  void simulate(int, int steps, std::span<std::uint64_t> slot) override {
    const auto words32 = static_cast<unsigned>(2 * g_.extended_words());
    const auto rows = static_cast<unsigned>(g_.extended_rows());
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(device_[0].data(), slot.data(),
                                        static_cast<std::size_t>(g_.extended_size()) * 8,
                                        cudaMemcpyHostToDevice, stream_.get()));
    const int current = wide::advance(kernel_, {device_[0].data(), device_[1].data()}, 0, words32,
                                      rows, static_cast<std::uint64_t>(steps), stream_.get());
    const std::uint32_t* centre = device_[current].data() +
                                  static_cast<std::size_t>(g_.halo_steps) * words32 +
                                  2 * g_.halo_words();
    LIFEBENCH_CUDA_CALL(cudaMemcpy2DAsync(
        slot.data(), static_cast<std::size_t>(g_.tile_words()) * 8, centre,
        std::size_t{words32} * 4, static_cast<std::size_t>(g_.tile_words()) * 8,
        static_cast<std::size_t>(g_.tile_rows()), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
  }
  void write(UniverseBlockWriter& file, int k, int, std::span<const std::uint64_t> slot) override {
    file.write(g_.first_row(k), g_.tile_rows(), g_.first_word(k), g_.tile_words(),
               slot.first(static_cast<std::size_t>(g_.tile_size())));
  }

private:
  /// 32-bit words of an extended sub-universe.
  [[nodiscard]] std::size_t buffer_words32() const {
    return static_cast<std::size_t>(2 * g_.extended_size());
  }

  tiles::Geometry g_;
  wide::Config kernel_;
  std::array<cuda::DeviceBuffer<std::uint32_t>, 2> device_;
  cuda::Stream stream_;
};

/// bands.hpp's operations on the GPU: row copies to and from the handoff, and launches.
struct DeviceBandOperations {
  std::array<std::uint32_t*, 2> buffers;
  std::uint32_t* handoff;
  std::size_t row_words32;
  const wide::Config& kernel;
  cudaStream_t stream;
  int current = 0;

  [[nodiscard]] std::size_t offset(std::int64_t row) const {
    return static_cast<std::size_t>(row) * row_words32;
  }
  void copy(std::uint32_t* to, const std::uint32_t* from, std::int64_t rows) const {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(to, from, offset(rows) * 4, cudaMemcpyDeviceToDevice, stream));
  }
  void to_handoff(std::int64_t buffer_row, std::int64_t handoff_row, std::int64_t rows) const {
    copy(handoff + offset(handoff_row), buffers[current] + offset(buffer_row), rows);
  }
  void from_handoff(std::int64_t handoff_row, std::int64_t buffer_row, std::int64_t rows) const {
    copy(buffers[current] + offset(buffer_row), handoff + offset(handoff_row), rows);
  }
  void step(std::int64_t first_row, std::int64_t rows, int generations) {
    // `generations` came from wide::steps_of, so the launch does all of them.
    wide::launch(kernel, buffers[current] + offset(first_row),
                 buffers[1 - current] + offset(first_row), static_cast<unsigned>(row_words32),
                 static_cast<unsigned>(rows), static_cast<std::uint64_t>(generations), stream);
    current = 1 - current;
  }
};

/// Ours: skewed bands (bands.hpp), no halo recomputed; the prelude's chunks come first. A
/// band's simulation is begun by simulate() and ended by settle(): its copies to and from the
/// GPU go on streams of their own, into and out of one of `sets` sets of buffers (two: they
/// overlap the kernels of the band before and after it).
class SkewedPasses final : public Passes {
public:
  SkewedPasses(const bands::Bands& b, const wide::Config& kernel, int sets)
      : full_(b), kernel_(kernel),
        handoff_(static_cast<std::size_t>(2 * b.handoff_rows() * b.row_words)) {
    for (int s = 0; s < sets; ++s) {
      sets_.push_back(
          std::make_unique<BufferSet>(static_cast<std::size_t>(2 * b.buffer_rows() * b.row_words)));
    }
  }
  SkewedPasses(const SkewedPasses&) = delete;
  SkewedPasses& operator=(const SkewedPasses&) = delete;
  /// Copies may still run into or out of the caller's slots where a stage failed.
  ~SkewedPasses() override {
    for (const cuda::Stream* stream : {&copy_in_, &compute_, &copy_out_}) {
      LIFEBENCH_CUDA_CALL_NOEXCEPT(cudaStreamSynchronize(stream->get()));
    }
  }

  [[nodiscard]] int items(int steps) const override { return pass(steps).items(); }
  void read(UniverseReader& file, int k, int steps, std::span<std::uint64_t> slot) override {
    const bands::Bands b = pass(steps);
    tiles::read_rows(file, b.first_input_row(k), b.input_rows(k),
                     slot.first(static_cast<std::size_t>(b.input_rows(k) * b.row_words)));
  }
  void simulate(int k, int steps, std::span<std::uint64_t> slot) override {
    const bands::Bands b = pass(steps);
    BufferSet& set = *sets_[set_of(b, k)];
    DeviceBandOperations ops{{set.buffers[0].data(), set.buffers[1].data()},
                             handoff_.data(),
                             static_cast<std::size_t>(2 * b.row_words),
                             kernel_,
                             compute_.get()};
    // Every item arrives in buffer 0 of its set, once the set's last item has left it: a band
    // alone, the prelude's chunks one under another.
    set.free.wait_on(copy_in_.get());
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(set.buffers[0].data() + ops.offset(b.input_buffer_row(k)),
                                        slot.data(), ops.offset(b.input_rows(k)) * 4,
                                        cudaMemcpyHostToDevice, copy_in_.get()));
    set.uploaded.record(copy_in_.get());
    set.uploaded.wait_on(compute_.get());
    const std::vector<int> launches = launches_of(steps);
    cudaStream_t last = compute_.get(); // the stream that ends the item
    if (!b.is_chunk(k)) {
      bands::advance_band(b, launches, ops);
      set.computed.record(compute_.get());
      set.computed.wait_on(copy_out_.get());
      last = copy_out_.get();
      LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(
          slot.data(), set.buffers[ops.current].data() + ops.offset(b.output_buffer_row()),
          ops.offset(b.band_rows()) * 4, cudaMemcpyDeviceToHost, last));
    } else if (k + 1 == b.chunks()) {
      bands::advance_prelude(b, launches, ops);
    }
    set.free.record(last);
    ended_[static_cast<std::size_t>(k % 2)].record(last);
  }
  /// Two items at most are begun and not settled: item k's is settled before item k + 2's
  /// begins.
  void settle(int k) override { ended_[static_cast<std::size_t>(k % 2)].synchronize(); }
  [[nodiscard]] bool settles() const override { return true; }
  void write(UniverseBlockWriter& file, int k, int steps,
             std::span<const std::uint64_t> slot) override {
    const bands::Bands b = pass(steps);
    if (b.is_chunk(k)) return; // the prelude only hands rows on
    tiles::write_rows(file, b.height, b.row_words, b.first_output_row(k), b.band_rows(),
                      slot.first(static_cast<std::size_t>(b.slot_words())));
  }

private:
  [[nodiscard]] bands::Bands pass(int steps) const {
    bands::Bands b = full_;
    b.steps = steps;
    return b;
  }
  /// Two buffers of a band or of the prelude on the GPU, and what their items have got to.
  struct BufferSet {
    explicit BufferSet(std::size_t words)
        : buffers{cuda::DeviceBuffer<std::uint32_t>(words),
                  cuda::DeviceBuffer<std::uint32_t>(words)} {}
    std::array<cuda::DeviceBuffer<std::uint32_t>, 2> buffers;
    cuda::Event uploaded; ///< the item's input is in buffers[0]
    cuda::Event computed; ///< the item's generations are done
    cuda::Event free;     ///< the set's last item is done with it
  };
  /// The set item k uses: the prelude's chunks the first, the bands each in turn from the
  /// second, so that the first band's copy overlaps the prelude's kernels.
  [[nodiscard]] std::size_t set_of(const bands::Bands& b, int k) const {
    if (b.is_chunk(k)) return 0;
    return static_cast<std::size_t>(k - b.chunks() + 1) % sets_.size();
  }
  /// The generations of each launch of a pass, as the kernel does them.
  [[nodiscard]] std::vector<int> launches_of(int steps) const {
    std::vector<int> launches;
    for (int left = steps; left > 0; left -= launches.back()) {
      launches.push_back(wide::steps_of(kernel_, static_cast<std::uint64_t>(left)));
    }
    return launches;
  }

  bands::Bands full_;
  wide::Config kernel_;
  std::vector<std::unique_ptr<BufferSet>> sets_;
  cuda::DeviceBuffer<std::uint32_t> handoff_;
  cuda::Stream compute_;             ///< the kernels and the handoffs' copies, in order
  cuda::Stream copy_in_;             ///< items to the GPU
  cuda::Stream copy_out_;            ///< bands back
  std::array<cuda::Event, 2> ended_; ///< items k and k + 1, by k % 2
};

std::unique_ptr<Passes> passes_of(const Layout& layout, const Plan& plan) {
  if (const auto* g = std::get_if<tiles::Geometry>(&layout)) {
    return std::make_unique<HaloPasses>(*g, plan.kernel);
  }
  return std::make_unique<SkewedPasses>(std::get<bands::Bands>(layout), plan.kernel,
                                        band_buffer_sets(plan));
}

/// Pinned slots, the passes' device side, and the passes over a file.
class OutOfCore {
public:
  OutOfCore(const Layout& layout, const Plan& plan)
      : layout_(layout), plan_(plan), passes_(passes_of(layout, plan)) {
    for (int s = 0; s < plan.slots(); ++s) {
      slots_.emplace_back(static_cast<std::size_t>(slot_words(layout)));
    }
  }

  /// Advances `in` by `generations` into `out` (`in` itself for in place); adds each
  /// stage's seconds to `seconds` (the write stage's includes the time spent waiting for
  /// a pass to reach the disk). Each pass is written beside `out` and put in its place;
  /// with overlap the next pass reads the new file while it is synced and put in place, and
  /// without it, with direct writes, the pass after next writes over the file it replaced. Each
  /// pass's header carries `origin` (UniverseHeader::origin).
  void advance(const fs::path& in, const fs::path& out, std::uint64_t generations,
               pipeline::StageSeconds& seconds,
               std::optional<std::uint64_t> origin = std::nullopt) {
    auto reader = std::make_unique<UniverseReader>(in);
    std::future<void> committing; // the pass before, on its way to the disk
    const auto halo_steps = static_cast<std::uint64_t>(plan_.halo_steps);
    pipeline::PassLog log(std::cerr, "cuda-outofcore",
                          generations / halo_steps + (generations % halo_steps != 0 ? 1 : 0),
                          kSayPassesEvery, pipeline::PassLog::Clock::now());
    std::uint64_t passes_done = 0;
    // A pass committed in turn (not beside the next pass) hands the file it replaced to the
    // next pass's writer, which writes over it (DirectFileWriter).
    std::unique_ptr<UniverseBlockWriter> before;
    const std::int64_t row_words = std::visit([](const auto& l) { return l.row_words; }, layout_);
    const std::int64_t height = std::visit([](const auto& l) { return l.height; }, layout_);
    while (generations > 0) {
      UniverseHeader next = reader->header();
      next.origin = origin;
      if (next.problem.shape.height != height || next.words_per_row() != row_words) {
        throw Error("out-of-core: " + next.problem.to_string() + " is not the universe planned");
      }
      if (next.generation > std::numeric_limits<std::uint64_t>::max() - generations) {
        throw Error("out-of-core: generation " + std::to_string(next.generation) +
                    " cannot be advanced " + std::to_string(generations) + " generations");
      }
      const auto steps = static_cast<int>(std::min(halo_steps, generations));
      next.generation += static_cast<std::uint64_t>(steps);
      auto file = std::make_unique<UniverseBlockWriter>(
          out, next,
          plan_.cache == outofcore::Cache::direct ? FileWrites::direct : FileWrites::cached,
          before.get());
      before.reset();
      pipeline::StageSeconds pass = pipeline::run(
          passes_->items(steps), plan_.overlap, plan_.slots(),
          {.read = [&](int k, int s) { passes_->read(*reader, k, steps, slot(s)); },
           .simulate = [&](int k, int s) { passes_->simulate(k, steps, slot(s)); },
           .write = [&](int k, int s) { passes_->write(*file, k, steps, slot(s)); },
           .settle = passes_->settles()
                         ? std::function<void(int, int)>([&](int k, int) { passes_->settle(k); })
                         : nullptr});
      generations -= static_cast<std::uint64_t>(steps);

      const auto start = std::chrono::steady_clock::now();
      file->finish();
      if (committing.valid()) committing.get(); // passes reach `out` in order
      if (generations > 0) reader = std::make_unique<UniverseReader>(file->temporary());
      if (plan_.overlap && generations > 0) {
        committing = std::async(std::launch::async, [this, file = std::move(file), out]() mutable {
          commit(*file, out);
          file.reset(); // the file it replaced goes now, on this thread
        });
      } else {
        commit(*file, out);
        // The first pass replaced the file the run began with, which is not ours to write over.
        if (passes_done > 0) before = std::move(file);
      }
      pass.write += seconds_since(start);
      seconds.read += pass.read;
      seconds.simulate += pass.simulate;
      seconds.write += pass.write;
      log.ended(++passes_done, next.generation, pass, pipeline::PassLog::Clock::now());
    }
  }

private:
  /// A pass to the disk and into place, then out of the page cache where the plan says so:
  /// the next pass reads it from the disk (as it does a pass written past the cache).
  void commit(UniverseBlockWriter& file, const fs::path& out) const {
    file.commit();
    if (plan_.cache == outofcore::Cache::dropped) drop_from_page_cache(out);
  }

  [[nodiscard]] std::span<std::uint64_t> slot(int s) const {
    return {slots_[static_cast<std::size_t>(s)].data(), slots_[static_cast<std::size_t>(s)].size()};
  }

  Layout layout_;
  Plan plan_;
  // The slots outlive the passes, whose copies (SkewedPasses) may still use them.
  std::vector<cuda::PinnedBuffer<std::uint64_t>> slots_;
  std::unique_ptr<Passes> passes_;
};

/// The universe in a file of its own in `folder`, removed with the simulator.
class OutOfCoreSimulator final : public Simulator {
public:
  OutOfCoreSimulator(const Problem& problem, const Params& params)
      : OutOfCoreSimulator(problem, params, planned(params, UniverseHeader{problem, 0})) {}

  void upload(const Grid& grid) override { file_.upload(grid); }
  void upload_soup(const SoupSpec& soup) override { file_.upload_soup(soup); }
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
    info["subuniverses"] = partition_of(layout_);
    info["pinned_host_bytes"] = std::to_string(host_bytes(layout_, plan_));
    info["device_buffer_bytes"] = std::to_string(device_words(layout_, plan_) * 8);
    if (plan_.fitted_rows) info["rows_per_thread_chosen"] = std::to_string(plan_.kernel.rows);
    return info;
  }

private:
  OutOfCoreSimulator(const Problem& problem, const Params& params, const Planned& p)
      : plan_(p.plan), layout_(p.layout), run_(layout_, plan_), file_(problem, params) {}

  Plan plan_;
  Layout layout_;
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
  int files = 0;
  try {
    const Plan plan = plan_of(params);
    (void)layout_of(UniverseHeader{problem, 0}, plan);
    files = plan.universe_files();
  } catch (const Error& error) {
    return error.what();
  }
  return outofcore::folder_unsupported(problem, params, files);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-outofcore", "square", "cuda",
              "seed 003 Section 8 and Table 3, a universe larger than memory streamed from disk "
              "through the GPU; overlap=on and scheme=skewed are ours",
              "universe file advanced halo_steps generations per pass, sub-universes extended "
              "by halo_steps cells read, simulated on the GPU by cuda-life-wide's kernel and "
              "their centres written back; overlap: reads, GPU and writes pipelined; skewed: "
              "bands that move down a row per generation and hand their edge rows on, no halo"},
    .axes =
        [] {
          auto axes = lifebench::cuda::life_wide::fastest_axes(
              {{.name = "scheme",
                .default_value = "halo",
                .allowed = {"halo", "skewed"},
                .description = "halo: sub-universes extended by halo_steps cells, their "
                               "edges recomputed (the paper); skewed: bands of whole rows "
                               "that hand the rows below each generation on, none "
                               "recomputed but a prelude of 2 x halo_steps rows"},
               {.name = "subuniverses",
                .default_value = "auto",
                .allowed = {},
                .description = "CxR: sub-universes across and down (the paper's B = 16 is "
                               "4x4, 1xR are bands of whole rows; skewed: 1xR only); "
                               "auto: the fewest n x n (skewed: 1 x n) that fit memory"},
               lifebench::halo_steps_axis(
                   "1024", "T: generations per pass over the file, 1 ... 65536; halo: "
                           "also the cells each sub-universe is extended by"),
               {.name = "overlap",
                .default_value = "on",
                .allowed = {"on", "off"},
                .description = "on: a reader and a writer thread overlap the disk with the "
                               "GPU; off: read, simulate, write in turn (the paper)"},
               {.name = "memory",
                .default_value = "4G",
                .allowed = {},
                .description = "pinned host memory budget for the slots of sub-universes "
                               "or bands (bytes, or with K, M, G)"},
               lifebench::outofcore::folder_axis(),
               lifebench::outofcore::cache_axis()});
          return lifebench::cuda::life_wide::with_fitted_rows(std::move(axes),
                                                              "its band or sub-universe");
        }(),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::OutOfCoreSimulator>,
    .advance_universe_file =
        [](const std::filesystem::path& in, const std::filesystem::path& out,
           std::uint64_t generations, const lifebench::Params& params, std::uint64_t origin) {
          const lifebench::Planned p =
              lifebench::planned(params, lifebench::UniverseReader(in).header());
          lifebench::outofcore_pipeline::StageSeconds ignored;
          lifebench::OutOfCore(p.layout, p.plan).advance(in, out, generations, ignored, origin);
        }})
