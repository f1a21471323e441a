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

} // namespace
} // namespace lifebench
