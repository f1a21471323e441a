// Ours: one universe split across the GPUs of a machine. Each GPU holds a band of whole
// rows with halo_steps (T) halo rows above and below; every T generations the halos
// are refilled from the neighbouring bands (peer copies between the GPUs, through the
// host where they have no peer access), then each GPU advances its band T generations
// with cuda-life-wide's kernel on its own, as a torus whose wrongly wrapped edges are
// the halo's. The same scheme as cuda-outofcore's bands, with the GPUs' memories in
// place of the file.
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_simulator.cuh"
#include "cuda/packed_simulator.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lifebench {
namespace {

namespace wide = cuda::life_wide;

int halo_steps_of(const Params& params) {
  const std::int64_t steps = params.get_int("halo_steps");
  if (steps < 1 || steps > 4096) throw Error("halo_steps must be 1 ... 4096");
  return static_cast<int>(steps);
}

/// One GPU's band: `rows` rows of the universe from `first_row`, between T halo rows
/// above and T below, in two buffers.
struct Band {
  int device = 0;
  std::int64_t first_row = 0;
  std::int64_t rows = 0;
  cuda::Stream stream;
  std::array<cuda::DeviceBuffer<std::uint32_t>, 2> buffers;
  int current = 0;
};

class MultiGpuSimulator final : public Simulator {
public:
  MultiGpuSimulator(const Problem& problem, const Params& params)
      : problem_(problem), halo_(halo_steps_of(params)),
        words_per_row_(static_cast<unsigned>(problem.shape.width / 32)) {
    const int gpus = wide::gpus_of(params);
    const std::int64_t rows = problem.shape.height / gpus;
    config_ = wide::config_for_grid(params, words_per_row_, rows + 2 * std::int64_t{halo_});
    for (int g = 0; g < gpus; ++g) {
      LIFEBENCH_CUDA_CALL(cudaSetDevice(g));
      auto band = std::make_unique<Band>();
      band->device = g;
      band->first_row = g * rows;
      band->rows = rows;
      for (auto& buffer : band->buffers)
        buffer = cuda::DeviceBuffer<std::uint32_t>(words(rows + 2 * std::int64_t{halo_}));
      bands_.push_back(std::move(band));
    }
    // Peer access between neighbours where the GPUs allow it (else copies go through the host).
    for (int g = 0; g < gpus; ++g) {
      for (const int other : std::set{(g + 1) % gpus, (g + gpus - 1) % gpus}) {
        int can = 0;
        if (other == g) continue;
        LIFEBENCH_CUDA_CALL(cudaDeviceCanAccessPeer(&can, g, other));
        if (can == 0) continue;
        LIFEBENCH_CUDA_CALL(cudaSetDevice(g));
        const cudaError_t status = cudaDeviceEnablePeerAccess(other, 0);
        if (status != cudaErrorPeerAccessAlreadyEnabled) LIFEBENCH_CUDA_CALL(status);
        (void)cudaGetLastError();
        ++peer_links_;
      }
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(0));
  }

  void upload(const Grid& grid) override {
    const std::vector<std::uint32_t> all = pack_rows<std::uint32_t>(grid);
    for (auto& band : bands_) {
      LIFEBENCH_CUDA_CALL(cudaSetDevice(band->device));
      LIFEBENCH_CUDA_CALL(cudaMemcpy(centre(*band), all.data() + words(band->first_row),
                                     words(band->rows) * 4, cudaMemcpyHostToDevice));
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(0));
  }

  /// Each GPU's rows of the soup made on the host in bands: the byte grid of a universe as
  /// large as the GPUs' memories together would not fit in the host's.
  void upload_soup(const SoupSpec& soup) override {
    if (soup.shape != problem_.shape) {
      throw Error("upload_soup: a " + soup.shape.to_string() + " soup for a " +
                  problem_.shape.to_string() + " grid");
    }
    for (auto& band : bands_) {
      LIFEBENCH_CUDA_CALL(cudaSetDevice(band->device));
      cuda_packed::upload_soup_rows(soup, band->first_row, band->rows, centre(*band),
                                    words_per_row_, cuda_packed::soup_band_rows(soup.shape),
                                    band->stream.get());
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(0));
  }

  void advance(std::uint64_t generations) override {
    for (std::uint64_t done = 0; done < generations;) {
      const auto steps =
          std::min<std::uint64_t>(static_cast<std::uint64_t>(halo_), generations - done);
      exchange_halos();
      for (auto& band : bands_) {
        LIFEBENCH_CUDA_CALL(cudaSetDevice(band->device));
        const auto height = static_cast<unsigned>(band->rows + 2 * std::int64_t{halo_});
        band->current =
            wide::advance(config_, {band->buffers[0].data(), band->buffers[1].data()},
                          band->current, words_per_row_, height, steps, band->stream.get());
      }
      done += steps;
    }
    synchronize();
  }

  Grid download() override {
    std::vector<std::uint32_t> all(words(problem_.shape.height));
    for (auto& band : bands_) {
      LIFEBENCH_CUDA_CALL(cudaSetDevice(band->device));
      LIFEBENCH_CUDA_CALL(cudaMemcpy(all.data() + words(band->first_row), centre(*band),
                                     words(band->rows) * 4, cudaMemcpyDeviceToHost));
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(0));
    Grid grid(problem_.shape);
    unpack_rows<std::uint32_t>(std::span<const std::uint32_t>(all), grid);
    return grid;
  }

  [[nodiscard]] std::map<std::string, std::string> device() const override {
    auto info = cuda::device_info(); // device 0's; the machine's GPUs are alike here
    info["gpus"] = std::to_string(bands_.size());
    info["rows_per_gpu"] = std::to_string(bands_.front()->rows);
    info["peer_links"] = std::to_string(peer_links_);
    info["rows_per_thread_chosen"] = std::to_string(config_.rows);
    return info;
  }

private:
  [[nodiscard]] std::size_t words(std::int64_t rows) const {
    return static_cast<std::size_t>(rows) * words_per_row_;
  }
  [[nodiscard]] std::uint32_t* centre(const Band& band) const {
    return band.buffers[band.current].data() + words(halo_);
  }

  void synchronize() const {
    for (const auto& band : bands_) {
      LIFEBENCH_CUDA_CALL(cudaSetDevice(band->device));
      band->stream.synchronize();
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(0));
  }

  /// Every band's halos from its neighbours' edge rows (a single band's from its own).
  /// The bands are idle before (their last generations done) and after (no band's
  /// kernels overwrite rows a copy still reads).
  void exchange_halos() {
    synchronize();
    const std::size_t n = bands_.size();
    const std::size_t halo_bytes = words(halo_) * 4;
    for (std::size_t g = 0; g < n; ++g) {
      Band& band = *bands_[g];
      const Band& above = *bands_[(g + n - 1) % n];
      const Band& below = *bands_[(g + 1) % n];
      LIFEBENCH_CUDA_CALL(cudaSetDevice(band.device));
      std::uint32_t* buffer = band.buffers[band.current].data();
      LIFEBENCH_CUDA_CALL(cudaMemcpyPeerAsync(buffer, band.device,
                                              centre(above) + words(above.rows - halo_),
                                              above.device, halo_bytes, band.stream.get()));
      LIFEBENCH_CUDA_CALL(cudaMemcpyPeerAsync(buffer + words(halo_ + band.rows), band.device,
                                              centre(below), below.device, halo_bytes,
                                              band.stream.get()));
    }
    synchronize();
  }

  Problem problem_;
  int halo_;
  unsigned words_per_row_;
  wide::Config config_; ///< rows_per_thread=auto: the rows chosen for the bands
  std::vector<std::unique_ptr<Band>> bands_;
  int peer_links_ = 0;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (auto reason = cuda_packed::torus_only(problem)) return reason;
  int gpus = 0;
  int halo = 0;
  try {
    gpus = wide::gpus_of(params);
    halo = halo_steps_of(params);
  } catch (const Error& error) {
    return error.what();
  }
  const int present = wide::device_count();
  if (gpus > present || gpus < 1) {
    return "gpus=" + params.get("gpus") + ": " + std::to_string(present) + " CUDA devices present";
  }
  if (problem.shape.height % gpus != 0 || problem.shape.height / gpus < halo) {
    return "the height " + std::to_string(problem.shape.height) + " must split into " +
           std::to_string(gpus) + " equal bands of at least halo_steps=" + std::to_string(halo) +
           " rows (a halo comes from one neighbour)";
  }
  const std::int64_t band_rows = problem.shape.height / gpus + 2 * halo;
  return wide::band_unsupported(problem, params, band_rows);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-multigpu", "square", "cuda", "ours",
              "one universe in bands of rows across the GPUs, halo_steps halo rows refilled "
              "from the neighbours by peer copies every halo_steps generations, "
              "cuda-life-wide's kernel on each band"},
    .axes = lifebench::cuda::life_wide::band_axes(
        "GPUs (bands) to split the universe across: a count, or all of the machine's"),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::MultiGpuSimulator>})
