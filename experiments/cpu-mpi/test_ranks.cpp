// The MPI experiments' host-side logic: the bands' geometry, and the failure lines read from
// what Open MPI 4 (Debian 12) and 5 (the offline prefix) print when a rank fails.
#include "mpi/bands.hpp"
#include "mpi/rank_failure.hpp"

#include <gtest/gtest.h>
#include <string_view>
#include <utility>
#include <vector>

namespace lifebench::mpi {
namespace {

TEST(Bands, CoverTheRowsOnceAsEvenlyAsTheHeightAllows) {
  const Bands bands{64, 3, 5};
  const std::vector<std::pair<int, int>> first_row_and_rows{{0, 21}, {21, 21}, {42, 22}};
  for (int rank = 0; rank < 3; ++rank) {
    const auto [first_row, rows] = first_row_and_rows.at(static_cast<std::size_t>(rank));
    EXPECT_EQ(bands.first_row(rank), first_row) << "rank " << rank;
    EXPECT_EQ(bands.rows(rank), rows) << "rank " << rank;
  }
  EXPECT_EQ(bands.first_row(3), 64);
}

TEST(Bands, NeighboursWrapAroundTheRanks) {
  const Bands three{64, 3, 5};
  EXPECT_EQ(three.above(0), 2);
  EXPECT_EQ(three.below(2), 0);
  EXPECT_EQ(three.above(1), 0);
  EXPECT_EQ(three.below(1), 2);
  const Bands one{64, 1, 5};
  EXPECT_EQ(one.above(0), 0);
  EXPECT_EQ(one.below(0), 0);
}

TEST(Bands, RefuseBandsShorterThanTheirHalo) {
  EXPECT_FALSE(Bands({64, 4, 16}).unsupported());
  EXPECT_EQ(Bands({64, 5, 16}).unsupported(),
            "the height 64 does not split into 5 bands of at least halo_steps=16 rows (a halo "
            "comes from one neighbour)");
  EXPECT_TRUE(Bands({64, 0, 16}).unsupported());
  EXPECT_TRUE(Bands({64, 2, 0}).unsupported());
}

/// The rows of each band of `bands`, checking that they cover the height once, in order.
std::vector<std::int64_t> rows_of(const Bands& bands) {
  std::vector<std::int64_t> rows;
  EXPECT_EQ(bands.first_row(0), 0);
  for (int r = 0; r < bands.ranks; ++r) {
    EXPECT_EQ(bands.first_row(r) + bands.rows(r), bands.first_row(r + 1));
    rows.push_back(bands.rows(r));
  }
  EXPECT_EQ(bands.first_row(bands.ranks), bands.height);
  return rows;
}

TEST(Bands, WeightedByMeasuredSpeedsTakeEachItsShare) {
  const Bands equal{1000, 3, 5};
  // 985 rows past the halos' 15: 492, 246 and 246 of them by speed, the one left over to
  // the fastest.
  EXPECT_EQ(rows_of(equal.weighted(std::vector{2.0, 1.0, 1.0})),
            (std::vector<std::int64_t>{498, 251, 251}));
  EXPECT_EQ(rows_of(equal.weighted(std::vector{1.0, 1.0, 2.0})),
            (std::vector<std::int64_t>{251, 251, 498}));
  // Equal speeds: within a row of equal bands.
  for (const std::int64_t rows : rows_of(equal.weighted(std::vector{3.0, 3.0, 3.0}))) {
    EXPECT_GE(rows, 333);
    EXPECT_LE(rows, 334);
  }
}

TEST(Bands, WeightedKeepAtLeastTheHaloForASlowRank) {
  const Bands equal{64, 4, 16};
  EXPECT_EQ(rows_of(equal.weighted(std::vector{1.0, 1e-12, 1.0, 1.0})),
            (std::vector<std::int64_t>{16, 16, 16, 16}));
  const Bands tall{1000, 4, 16};
  const auto rows = rows_of(tall.weighted(std::vector{1.0, 0.0, 1.0, 1.0}));
  EXPECT_EQ(rows[1], 16);
}

TEST(Bands, WeightedWithoutMeasuredSpeedsStayEqual) {
  const Bands equal{64, 3, 5};
  const auto expected = rows_of(equal);
  EXPECT_EQ(rows_of(equal.weighted(std::vector{0.0, 0.0, 0.0})), expected);
  EXPECT_EQ(rows_of(equal.weighted(std::vector{-1.0, 0.0, -2.0})), expected);
}

TEST(Bands, HaloBytesAreTwoRowsARankAGeneration) {
  EXPECT_EQ(Bands({64, 3, 5}).halo_bytes_per_generation(4096), 3 * 2 * 4096.0);
}

/// What mpirun printed, how it ended, and the failure line read from them.
struct FailureCase {
  std::string_view name;
  std::string_view output;
  std::string_view status;
  std::string_view line;
};

TEST(RankFailure, NamesTheRankAndHowItFailed) {
  const std::vector<FailureCase> cases{
      {"the first line a rank printed",
       "lifebench: error: rank 2: cannot read /tmp/u.lbu: No such file or directory\n"
       "lifebench: error: rank 0: cannot read /tmp/u.lbu: No such file or directory\n"
       "------------------------------------------------------------------------\n"
       "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD\nwith errorcode 1.\n",
       "mpirun exited with code 1", "rank 2: cannot read /tmp/u.lbu: No such file or directory"},
      {"Open MPI 4, killed by a signal",
       "--------------------------------------------------------------------------\n"
       "Primary job  terminated normally, but 1 process returned\n"
       "a non-zero exit code. Per user-direction, the job has been aborted.\n"
       "--------------------------------------------------------------------------\n"
       "--------------------------------------------------------------------------\n"
       "mpirun noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).\n"
       "--------------------------------------------------------------------------\n",
       "mpirun exited with code 137", "rank 1: killed by signal 9 (Killed)"},
      {"Open MPI 5, killed by a signal",
       "--------------------------------------------------------------------------\n"
       "prterun noticed that process rank 3 with PID 24163 on node vm exited on\n"
       "signal 11 (Segmentation fault).\n"
       "--------------------------------------------------------------------------\n",
       "mpirun exited with code 139", "rank 3: killed by signal 11 (Segmentation fault)"},
      {"Open MPI 4, an exit code",
       "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
       "the job to be terminated. The first process to do so was:\n\n"
       "  Process name: [[24138,1],1]\n  Exit code:    3\n",
       "mpirun exited with code 3", "rank 1: exited with code 3"},
      {"Open MPI 5, an exit code",
       "prterun detected that one or more processes exited with non-zero status,\n"
       "thus causing the job to be terminated. The first process to do so was:\n\n"
       "   Process name: [prterun-vm-13140@1,2]\n   Exit code:    3\n",
       "mpirun exited with code 3", "rank 2: exited with code 3"},
  };
  for (const FailureCase& failure : cases) {
    SCOPED_TRACE(failure.name);
    EXPECT_EQ(rank_failure(failure.output, std::string(failure.status)), failure.line);
  }
}

TEST(RankFailure, ElseSaysHowMpirunEndedWithItsLastLine) {
  EXPECT_EQ(rank_failure("---------\nThere are not enough slots available\n---------\n",
                         "mpirun exited with code 1"),
            "mpirun exited with code 1: There are not enough slots available");
  EXPECT_EQ(rank_failure("", "mpirun killed by signal 15 (Terminated)"),
            "mpirun killed by signal 15 (Terminated)");
}

// Open MPI 4.1 where a rank is killed during its start: the job's note names no rank.
constexpr std::string_view kAbortWithoutRank =
    "----------------------------------------------------------------------\n"
    "Primary job  terminated normally, but 1 process returned\n"
    "a non-zero exit code. Per user-direction, the job has been aborted.\n"
    "----------------------------------------------------------------------\n";

TEST(RankFailure, SaysTheSignalOfAnUnnamedRankFromMpirunsCode) {
  EXPECT_EQ(rank_failure(kAbortWithoutRank, "mpirun exited with code 137"),
            "a rank was killed by signal 9 (Killed) (mpirun exited with code 137 and named no "
            "rank)");
  EXPECT_EQ(rank_failure(kAbortWithoutRank, "mpirun exited with code 1"),
            "mpirun exited with code 1: a non-zero exit code. Per user-direction, the job has "
            "been aborted.");
}

TEST(MpirunIsAborting, OnItsNotesOfAFailedJob) {
  EXPECT_TRUE(mpirun_is_aborting(kAbortWithoutRank));
  EXPECT_TRUE(mpirun_is_aborting("mpirun noticed that process rank 1 with PID 0 on node vm\n"
                                 "exited on signal 9 (Killed)."));
  EXPECT_TRUE(mpirun_is_aborting("prterun detected that one or more processes exited with\n"
                                 "non-zero status, thus causing the job to be terminated."));
  EXPECT_TRUE(mpirun_is_aborting("MPI_ABORT was invoked on rank 2 in communicator "
                                 "MPI_COMM_WORLD"));
  EXPECT_FALSE(mpirun_is_aborting(""));
  EXPECT_FALSE(mpirun_is_aborting("lifebench: rank 0 of 3 started\n"));
}

} // namespace
} // namespace lifebench::mpi
