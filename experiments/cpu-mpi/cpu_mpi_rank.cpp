// cpu-mpi's rank program: each rank holds its band between halo_steps halo rows above and
// below, in two buffers, and advances it with cpu-blocked's tile passes. A pass of
// s <= halo_steps generations first posts the halo exchange (non-blocking sends of the
// band's first and last s rows to the ranks above and below, receives into its halo rows),
// then computes the band's interior, whose tiles read no halo row, polling MPI between
// tiles so that the messages progress meanwhile; then it waits for the halos and computes
// the s rows at each edge of the band. It times its passes and its waits (phase_seconds).
#include "cpu/blocked_tiles.hpp"
#include "cpu/packed_grids.hpp"
#include "cpu/thread_pool.hpp"
#include "mpi/rank_main.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mpi.h>
#include <span>
#include <string>

namespace lifebench::cpu_mpi {
namespace {

namespace blocked = cpu_blocked;

/// Halo messages' tags, by the way their rows travel.
enum Tag : int { kUp = 1, kDown = 2 };

class CpuBand final : public mpi::BandStepper {
public:
  explicit CpuBand(const mpi::RankContext& context)
      : rank_(context.rank), bands_(context.bands), words_(context.row_words),
        rows_(context.rows()), halo_(context.bands.halo_steps),
        passes_(pool::threads_of(context.params),
                blocked::tiling_of(context.params, "halo_steps", words_, rows_)),
        buffers_{simd::allocate_words((rows_ + 2 * halo_) * words_),
                 simd::allocate_words((rows_ + 2 * halo_) * words_)} {
    mpi::check_mpi(MPI_Type_contiguous(static_cast<int>(words_), MPI_UINT64_T, &row_),
                   "MPI_Type_contiguous");
    mpi::check_mpi(MPI_Type_commit(&row_), "MPI_Type_commit");
  }
  ~CpuBand() override { MPI_Type_free(&row_); }
  CpuBand(const CpuBand&) = delete;
  CpuBand& operator=(const CpuBand&) = delete;

  void load(std::span<const std::uint64_t> rows) override {
    std::copy(rows.begin(), rows.end(), row(current_, halo_));
  }
  void store(std::span<std::uint64_t> rows) override {
    std::copy_n(row(current_, halo_), rows.size(), rows.begin());
  }

  void advance(std::uint64_t generations) override {
    const std::int64_t top = halo_;            // the band's first row in its buffers
    const std::int64_t bottom = halo_ + rows_; // and the row after its last
    computing_ = 0;
    waiting_ = 0;
    while (generations > 0) {
      const auto s = static_cast<std::int64_t>(std::min<std::uint64_t>(generations, halo_));
      std::array<MPI_Request, 4> requests = exchange(s);
      double mark = MPI_Wtime();
      const blocked::PassGrid grid{row(current_, 0), row(1 - current_, 0), words_,
                                   rows_ + 2 * halo_, true};
      const bool interior = rows_ >= 2 * s;
      if (interior) {
        passes_.pass(grid, s, top + s, bottom - s, [&] {
          int done = 0;
          mpi::check_mpi(MPI_Testall(4, requests.data(), &done, MPI_STATUSES_IGNORE),
                         "MPI_Testall");
        });
      }
      mark = add_since(mark, computing_);
      mpi::check_mpi(MPI_Waitall(4, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      mark = add_since(mark, waiting_);
      if (interior) {
        passes_.pass(grid, s, top, top + s);
        passes_.pass(grid, s, bottom - s, bottom);
      } else {
        passes_.pass(grid, s, top, bottom);
      }
      add_since(mark, computing_);
      current_ = 1 - current_;
      generations -= static_cast<std::uint64_t>(s);
    }
  }

  [[nodiscard]] std::map<std::string, double> phase_seconds() const override {
    return {{"compute", computing_}, {"halo wait", waiting_}};
  }

  [[nodiscard]] std::map<std::string, std::string> device() const override {
    return {{"hwy_target", blocked::target_name()},
            {"threads_per_rank", std::to_string(passes_.threads())}};
  }

private:
  /// Adds the seconds since `mark` to `total`; returns now.
  static double add_since(double mark, double& total) {
    const double now = MPI_Wtime();
    total += now - mark;
    return now;
  }

  [[nodiscard]] std::uint64_t* row(int buffer, std::int64_t index) const {
    return buffers_[static_cast<std::size_t>(buffer)].get() + index * words_;
  }

  /// Posts the exchange of `s` halo rows each way: the band's first rows go up, its last
  /// rows down, the neighbours' into the halo rows next to the band.
  std::array<MPI_Request, 4> exchange(std::int64_t s) {
    std::array<MPI_Request, 4> requests{};
    const int count = static_cast<int>(s);
    const int above = bands_.above(rank_);
    const int below = bands_.below(rank_);
    mpi::check_mpi(MPI_Irecv(row(current_, halo_ - s), count, row_, above, kDown, MPI_COMM_WORLD,
                             requests.data()),
                   "MPI_Irecv");
    mpi::check_mpi(MPI_Irecv(row(current_, halo_ + rows_), count, row_, below, kUp, MPI_COMM_WORLD,
                             &requests[1]),
                   "MPI_Irecv");
    mpi::check_mpi(
        MPI_Isend(row(current_, halo_), count, row_, above, kUp, MPI_COMM_WORLD, &requests[2]),
        "MPI_Isend");
    mpi::check_mpi(MPI_Isend(row(current_, halo_ + rows_ - s), count, row_, below, kDown,
                             MPI_COMM_WORLD, &requests[3]),
                   "MPI_Isend");
    return requests;
  }

  int rank_;
  mpi::Bands bands_;
  std::int64_t words_;
  std::int64_t rows_;
  std::int64_t halo_;
  blocked::TilePasses passes_;
  std::array<hwy::AlignedFreeUniquePtr<std::uint64_t[]>, 2> buffers_;
  int current_ = 0;
  MPI_Datatype row_ = MPI_DATATYPE_NULL;
  double computing_ = 0; ///< seconds of the last advance in passes (the interior's polls too)
  double waiting_ = 0;   ///< and waiting for the halos after the interior
};

} // namespace
} // namespace lifebench::cpu_mpi

int main(int argc, char** argv) {
  return lifebench::mpi::rank_main(argc, argv, [](const lifebench::mpi::RankContext& context) {
    return std::make_unique<lifebench::cpu_mpi::CpuBand>(context);
  });
}
