// A pass that fails midway (a killed run, a full disk) leaves the universe file at the
// last completed pass, with its generation in the header, and the run goes on from it.
#include "cpu/bpbc_rows.hpp"
#include "cpu/outofcore.hpp"
#include "lifebench/error.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <random>

namespace lifebench {
namespace {

namespace fs = std::filesystem;

/// SINGLE-WORD, failing once `budget` words have been updated.
struct FailingKernel : packed_rows::SingleWord {
  static inline std::int64_t budget = 0;
  static std::array<packed_rows::Word, 1> update(const std::array<packed_rows::Aligned, 3>& r) {
    if (--budget < 0) throw Error("no space left on device");
    return SingleWord::update(r);
  }
};

TEST(OutOfCore, AFailedPassLeavesTheLastWholeGenerationAndTheRunResumes) {
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    const fs::path folder =
        fs::temp_directory_path() / ("lifebench-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(folder);
    const fs::path origin = folder / "start.lbu";
    const fs::path file = folder / "u.lbu";
    const Problem problem{parse_rule_spec("B3/S23").rule, Shape{128, 40, 1}, boundary};
    const Grid start = make_soup(SoupSpec{problem.shape, 0.4, 3});
    write_state(origin, State{problem, start, 0});

    const outofcore::Plan plan{.halo_steps = 4, .band_rows = 8};
    // A pass updates 5 bands x (14 + 12 + 10 + 8) rows (16-row buffers shrinking by two
    // rows a generation) x 2 words: the second pass (generations 5 to 8) fails halfway.
    const std::int64_t pass = std::int64_t{5} * (14 + 12 + 10 + 8) * 2;
    FailingKernel::budget = pass + pass / 2;
    EXPECT_THROW(outofcore::advance<FailingKernel>(origin, file, 10, plan), Error);
    const State after = read_state(file, std::nullopt);
    EXPECT_EQ(after.generation, 4U);
    EXPECT_EQ(after.grid, reference_advance(problem, start, 4));

    outofcore::advance<packed_rows::SingleWord>(file, file, 10 - after.generation, plan);
    const State done = read_state(file, std::nullopt);
    EXPECT_EQ(done.generation, 10U);
    EXPECT_EQ(done.grid, reference_advance(problem, start, 10));
    EXPECT_EQ(read_state(origin, std::nullopt).grid, start); // the input is never written
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator{}), 2);
    fs::remove_all(folder);
  }
}

template <class Kernel> void check_tall_halos() {
  // Bands of 2 rows under halos of 9 (reads wrap the grid several times on a torus).
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    for (const std::int64_t height : {2, 4, 6, 64}) {
      const fs::path file = fs::temp_directory_path() /
                            ("lifebench-test-" + std::to_string(std::random_device{}()) + ".lbu");
      const Problem problem{parse_rule_spec("B3/S23").rule, Shape{128, height, 1}, boundary};
      const Grid start = make_soup(SoupSpec{problem.shape, 0.45, 11});
      write_state(file, State{problem, start, 0});
      outofcore::advance<Kernel>(file, file, 20, outofcore::Plan{.halo_steps = 9, .band_rows = 2});
      EXPECT_EQ(read_state(file, std::nullopt).grid, reference_advance(problem, start, 20))
          << problem.to_string();
      fs::remove(file);
    }
  }
}

TEST(OutOfCore, HalosTallerThanBandsAndGrids) {
  check_tall_halos<packed_rows::SingleWord>();
  check_tall_halos<packed_rows::DoubleWord>();
}

TEST(OutOfCore, ABadPlanIsRefused) {
  const fs::path file = fs::temp_directory_path() / "lifebench-test-bad-plan.lbu";
  const Problem problem{parse_rule_spec("B3/S23").rule, Shape{64, 8, 1}, Boundary::torus};
  write_state(file, State{problem, Grid(problem.shape), 0});
  for (const outofcore::Plan plan : {outofcore::Plan{.halo_steps = 0, .band_rows = 4},
                                     outofcore::Plan{.halo_steps = 2, .band_rows = 0},
                                     outofcore::Plan{.halo_steps = 2, .band_rows = 3}}) {
    EXPECT_THROW(outofcore::advance<packed_rows::DoubleWord>(file, file, 4, plan), Error);
  }
  EXPECT_EQ(read_state(file, std::nullopt).generation, 0U);
  fs::remove(file);
}

} // namespace
} // namespace lifebench
