// One rank's band on its GPU: its rows between halo_steps halo rows above and below, in two
// device buffers, advanced with cuda-life-wide's kernels as a torus of its own whose wrongly
// wrapped edges the halos absorb (as cuda-multigpu's bands). Every halo_steps generations
// the halos are refilled from the neighbours by NCCL sends and receives enqueued on the
// band's stream between the launches: the GPUs move the rows, no copy goes through the
// host, and the host does not wait for the exchange (it waits once, at the end).
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_simulator.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/error.hpp"
#include "nccl_band.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace lifebench::cuda_nccl {
namespace {

namespace wide = cuda::life_wide;

class NcclBand final : public mpi::BandStepper {
public:
  NcclBand(const mpi::RankContext& context, const ncclUniqueId& id)
      : rank_(context.rank), bands_(context.bands),
        words_(static_cast<unsigned>(context.row_words * 2)), rows_(context.rows()),
        halo_(context.bands.halo_steps) {
    int devices = 0;
    LIFEBENCH_CUDA_CALL(cudaGetDeviceCount(&devices));
    if (context.local_ranks > devices) {
      throw Error(std::to_string(context.local_ranks) + " ranks on this host share its " +
                  std::to_string(devices) + " CUDA devices: cuda-nccl runs one rank per GPU");
    }
    LIFEBENCH_CUDA_CALL(cudaSetDevice(context.local_rank));
    // rows_per_thread=auto asks this rank's GPU for its SMs.
    config_ = wide::config_for_grid(context.params, words_, rows_ + 2 * std::int64_t{halo_});
    stream_ = std::make_unique<cuda::Stream>();
    for (auto& buffer : buffers_)
      buffer = cuda::DeviceBuffer<std::uint32_t>(words(rows_ + 2 * std::int64_t{halo_}));
    if (bands_.ranks > 1) {
      check_nccl(ncclCommInitRank(&comm_, context.bands.ranks, id, context.rank),
                 "ncclCommInitRank");
    }
  }
  ~NcclBand() override {
    if (comm_ != nullptr) ncclCommDestroy(comm_);
  }
  NcclBand(const NcclBand&) = delete;
  NcclBand& operator=(const NcclBand&) = delete;

  /// Uploads the band and exchanges its halos once: NCCL connects a pair of ranks at their
  /// first send and receive, a set-up that belongs outside the clock as the communicator's
  /// creation does. The advance exchanges again first.
  void load(std::span<const std::uint64_t> rows) override {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpy(row(halo_), rows.data(), rows.size_bytes(), cudaMemcpyHostToDevice));
    exchange_halos();
    stream_->synchronize();
  }
  void store(std::span<std::uint64_t> rows) override {
    LIFEBENCH_CUDA_CALL(
        cudaMemcpy(rows.data(), row(halo_), rows.size_bytes(), cudaMemcpyDeviceToHost));
  }

  void advance(std::uint64_t generations) override {
    const auto height = static_cast<unsigned>(rows_ + 2 * std::int64_t{halo_});
    for (std::uint64_t done = 0; done < generations;) {
      const auto steps =
          std::min<std::uint64_t>(static_cast<std::uint64_t>(halo_), generations - done);
      exchange_halos();
      current_ = wide::advance(config_, {buffers_[0].data(), buffers_[1].data()}, current_, words_,
                               height, steps, stream_->get());
      done += steps;
    }
    stream_->synchronize();
    if (comm_ == nullptr) return;
    ncclResult_t state = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm_, &state), "ncclCommGetAsyncError");
    check_nccl(state, "the halo exchange");
  }

  [[nodiscard]] std::map<std::string, std::string> device() const override {
    auto info = cuda::device_info();
    int version = 0;
    ncclGetVersion(&version);
    info.emplace("gpus_per_rank", "1");
    info.emplace("rows_per_thread_chosen", std::to_string(config_.rows));
    info.emplace("nccl", std::to_string(version / 10000) + "." +
                             std::to_string(version / 100 % 100) + "." +
                             std::to_string(version % 100));
    return info;
  }

private:
  [[nodiscard]] std::size_t words(std::int64_t rows) const {
    return static_cast<std::size_t>(rows) * words_;
  }
  [[nodiscard]] std::uint32_t* row(std::int64_t index) const {
    return buffers_[static_cast<std::size_t>(current_)].data() + words(index);
  }

  /// Enqueues the exchange of halo_steps rows each way on the band's stream: the band's
  /// first rows go up, its last rows down, the neighbours' into the halo rows beside it.
  /// NCCL matches a pair's sends and receives in order, so with one or two ranks (the
  /// neighbour above is the one below) each receive still meets the rows meant for it.
  /// A lone rank is its own neighbour both ways: its halos are copies of its own rows on
  /// its GPU, with no communicator (NCCL's sends to the sending rank itself hung on one
  /// H100 where halos were more than a row).
  void exchange_halos() {
    const std::size_t count = words(halo_);
    const int above = bands_.above(rank_);
    const int below = bands_.below(rank_);
    cudaStream_t stream = stream_->get();
    if (comm_ == nullptr) {
      const std::size_t bytes = count * sizeof(std::uint32_t);
      LIFEBENCH_CUDA_CALL(
          cudaMemcpyAsync(row(halo_ + rows_), row(halo_), bytes, cudaMemcpyDeviceToDevice, stream));
      LIFEBENCH_CUDA_CALL(
          cudaMemcpyAsync(row(0), row(rows_), bytes, cudaMemcpyDeviceToDevice, stream));
      return;
    }
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    check_nccl(ncclSend(row(halo_), count, ncclUint32, above, comm_, stream), "ncclSend");
    check_nccl(ncclSend(row(rows_), count, ncclUint32, below, comm_, stream), "ncclSend");
    check_nccl(ncclRecv(row(halo_ + rows_), count, ncclUint32, below, comm_, stream), "ncclRecv");
    check_nccl(ncclRecv(row(0), count, ncclUint32, above, comm_, stream), "ncclRecv");
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  }

  int rank_;
  mpi::Bands bands_;
  unsigned words_; ///< 32-bit words of a row
  std::int64_t rows_;
  int halo_;
  wide::Config config_; ///< rows_per_thread=auto: the rows chosen for this band
  std::unique_ptr<cuda::Stream> stream_;
  std::array<cuda::DeviceBuffer<std::uint32_t>, 2> buffers_;
  int current_ = 0;
  ncclComm_t comm_ = nullptr;
};

} // namespace

void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw Error(std::string("NCCL: ") + call + ": " + ncclGetErrorString(result) + " (" +
              ncclGetLastError(nullptr) + ")");
}

std::unique_ptr<mpi::BandStepper> make_band(const mpi::RankContext& context,
                                            const ncclUniqueId& id) {
  return std::make_unique<NcclBand>(context, id);
}

} // namespace lifebench::cuda_nccl
