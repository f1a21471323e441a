// The host side of cuda-outofcore: extended sub-universes read with their halos wrapped
// around the torus, and the pipeline's ordering, slot reuse and failure handling.
#include "common/universe_file.hpp"
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"
#include "pipeline.hpp"
#include "tiles.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace lifebench {
namespace {

namespace fs = std::filesystem;
namespace tiles = outofcore_tiles;
namespace pipeline = outofcore_pipeline;

TEST(OutOfCoreTiles, ExtendedSubUniversesWrapAroundTheTorus) {
  const fs::path file = fs::temp_directory_path() /
                        ("lifebench-tiles-" + std::to_string(std::random_device{}()) + ".lbu");
  const Problem problem{parse_rule_spec("B3/S23").rule, Shape{256, 12, 1}, Boundary::torus};
  const Grid grid = make_soup(SoupSpec{problem.shape, 0.5, 3});
  write_state(file, State{problem, grid, 0});
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(grid); // 4 a row
  UniverseReader reader(file);
  // Halos of 70 cells: 2 words, wider than the 4x2 partition's 1-word sub-universes,
  // and 70 rows, taller than the universe (it wraps around several times). Halos of 9 cells
  // (one word) make 2x2's extended width the row's own, yet shifted by a word.
  struct Case {
    tiles::Geometry geometry;
    std::int64_t halo_words = 0;
  };
  for (const auto& [g, halo_words] :
       {Case{{4, 12, {2, 2}, 70}, 2}, Case{{4, 12, {1, 3}, 70}, 0}, Case{{4, 12, {4, 2}, 70}, 2},
        Case{{4, 12, {1, 1}, 70}, 0}, Case{{4, 12, {2, 2}, 9}, 1}}) {
    ASSERT_FALSE(g.unsupported());
    EXPECT_EQ(g.halo_words(), halo_words);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(g.extended_size()));
    for (int k = 0; k < g.count(); ++k) {
      tiles::read_extended(reader, g, k, out);
      for (std::int64_t r = 0; r < g.extended_rows(); ++r) {
        const std::int64_t y = (((g.first_row(k) - g.halo_steps + r) % 12) + 12) % 12;
        for (std::int64_t c = 0; c < g.extended_words(); ++c) {
          const std::int64_t x = (((g.first_word(k) - g.halo_words() + c) % 4) + 4) % 4;
          ASSERT_EQ(out[static_cast<std::size_t>(r * g.extended_words() + c)],
                    words[static_cast<std::size_t>(y * 4 + x)])
              << g.parts.to_string() << " sub-universe " << k << " row " << r << " word " << c;
        }
      }
    }
  }
  EXPECT_TRUE(
      (tiles::Geometry{4, 12, {3, 1}, 1}.unsupported()->find("divide") != std::string::npos));
  fs::remove(file);
}

TEST(OutOfCoreTiles, PartitionsParseOrAreRefused) {
  EXPECT_EQ(tiles::Partition::parse("4x4")->columns, 4);
  EXPECT_EQ(tiles::Partition::parse("1x16")->rows, 16);
  for (const std::string bad : {"", "4", "x4", "4x", "0x4", "4x4x4", "-1x4", "4 x 4", "99999x1"})
    EXPECT_FALSE(tiles::Partition::parse(bad)) << bad;
}

/// What each stage did, in the order it happened.
struct Log {
  std::mutex mutex;
  std::vector<std::string> events;
  void add(char stage, int k, int s) {
    const std::lock_guard lock(mutex);
    events.push_back(std::string(1, stage) + std::to_string(k) + "/" + std::to_string(s));
  }
  /// Whether `event` has happened, while the stages still run.
  bool has(const std::string& event) {
    const std::lock_guard lock(mutex);
    return std::find(events.begin(), events.end(), event) != events.end();
  }
  [[nodiscard]] std::ptrdiff_t at(const std::string& event) const {
    const auto it = std::find(events.begin(), events.end(), event);
    return it == events.end() ? -1 : it - events.begin();
  }
};

pipeline::Stages logged(Log& log, int fail_reading = -1, int fail_simulating = -1) {
  return {.read =
              [&log, fail_reading](int k, int s) {
                if (k == fail_reading) throw Error("disk gone");
                log.add('r', k, s);
              },
          .simulate =
              [&log, fail_simulating](int k, int s) {
                if (k == fail_simulating) throw Error("launch failed");
                log.add('s', k, s);
              },
          .write = [&log](int k, int s) { log.add('w', k, s); }};
}

TEST(OutOfCoreCache, TheParameterIsCheckedAndDirectNeedsAFolderThatTakesIt) {
  namespace ooc = outofcore;
  EXPECT_EQ(ooc::cache_of(Params{}), ooc::Cache::kept);
  EXPECT_EQ(ooc::cache_of(Params{{{"cache", "dropped"}}}), ooc::Cache::dropped);
  EXPECT_EQ(ooc::cache_of(Params{{{"cache", "direct"}}}), ooc::Cache::direct);
  EXPECT_THROW((void)ooc::cache_of(Params{{{"cache", "off"}}}), Error);

  const fs::path folder =
      fs::temp_directory_path() / ("lifebench-direct-" + std::to_string(std::random_device{}()));
  fs::create_directories(folder);
  const Problem problem{parse_rule_spec("B3/S23").rule, Shape{256, 12, 1}, Boundary::torus};
  const Params direct{{{"cache", "direct"}, {"folder", folder.string()}}};
  EXPECT_FALSE(takes_direct_io(folder / "missing"));
  if (takes_direct_io(folder)) {
    EXPECT_EQ(ooc::folder_unsupported(problem, direct, 2), std::nullopt);
  } else {
    EXPECT_NE(ooc::folder_unsupported(problem, direct, 2), std::nullopt);
  }
  EXPECT_TRUE(fs::is_empty(folder)); // the probes leave nothing
  fs::remove(folder);
}

TEST(OutOfCorePipeline, InTurnWithoutOverlap) {
  Log log;
  (void)pipeline::run(3, false, 1, logged(log));
  EXPECT_EQ(log.events, (std::vector<std::string>{"r0/0", "s0/0", "w0/0", "r1/0", "s1/0", "w1/0",
                                                  "r2/0", "s2/0", "w2/0"}));
}

TEST(OutOfCorePipeline, OverlappedStagesKeepEachItemsOrderAndItsSlot) {
  for (int round = 0; round < 20; ++round) { // thread timing varies
    Log log;
    (void)pipeline::run(10, true, 3, logged(log));
    ASSERT_EQ(log.events.size(), 30U);
    for (int k = 0; k < 10; ++k) {
      const std::string slot = "/" + std::to_string(k % 3);
      const auto read = log.at("r" + std::to_string(k) + slot);
      const auto simulated = log.at("s" + std::to_string(k) + slot);
      const auto written = log.at("w" + std::to_string(k) + slot);
      ASSERT_GE(read, 0);
      EXPECT_LT(read, simulated);
      EXPECT_LT(simulated, written);
      if (k >= 3) { // the slot is read again only once its last item is written
        EXPECT_LT(log.at("w" + std::to_string(k - 3) + slot), read) << k;
      }
    }
  }
}

TEST(OutOfCorePipeline, ASimulationSettledApartEndsAfterItBeganAndBeforeItsWrite) {
  for (const bool overlap : {false, true}) {
    for (int round = 0; round < 20; ++round) { // thread timing varies
      Log log;
      pipeline::Stages stages = logged(log);
      stages.settle = [&log](int k, int s) { log.add('e', k, s); };
      (void)pipeline::run(10, overlap, overlap ? 3 : 1, stages);
      ASSERT_EQ(log.events.size(), 40U);
      for (int k = 0; k < 10; ++k) {
        const std::string item = std::to_string(k) + "/" + std::to_string(overlap ? k % 3 : 0);
        const auto begun = log.at("s" + item);
        ASSERT_GE(begun, 0);
        EXPECT_LT(begun, log.at("e" + item));
        EXPECT_LT(log.at("e" + item), log.at("w" + item));
      }
    }
  }
}

TEST(OutOfCorePipeline, OverlappedTheNextSimulationBeginsBeforeOneEndsWhereItIsRead) {
  Log log;
  std::atomic<int> reads = 0;
  pipeline::Stages stages = logged(log);
  stages.read = [&](int k, int s) {
    log.add('r', k, s);
    ++reads;
  };
  stages.simulate = [&](int k, int s) {
    if (k == 0) { // every item read (ten slots) before the first is simulated
      while (reads < 10)
        std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(200)); // and counted as read
    }
    log.add('s', k, s);
  };
  stages.settle = [&log](int k, int s) { log.add('e', k, s); };
  (void)pipeline::run(10, true, 10, stages);
  for (int k = 0; k + 1 < 10; ++k) {
    const std::string next = "s" + std::to_string(k + 1) + "/" + std::to_string(k + 1);
    EXPECT_LT(log.at(next), log.at("e" + std::to_string(k) + "/" + std::to_string(k))) << k;
  }
}

TEST(OutOfCorePipeline, ASimulationNotYetReadDoesNotHoldTheOneBeforeIt) {
  // Each read waits until the item before it has ended: a simulation that ended only once the
  // next had begun would wait forever.
  Log log;
  pipeline::Stages stages = logged(log);
  stages.settle = [&log](int k, int s) { log.add('e', k, s); };
  stages.read = [&log](int k, int s) {
    const auto start = std::chrono::steady_clock::now();
    const std::string before = "e" + std::to_string(k - 1) + "/" + std::to_string((k + 2) % 3);
    while (k > 0 && !log.has(before)) {
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) {
        throw Error("read " + std::to_string(k) + " waited for " + before);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    log.add('r', k, s);
  };
  EXPECT_NO_THROW((void)pipeline::run(10, true, 3, stages));
  EXPECT_EQ(log.events.size(), 40U);
}

TEST(OutOfCorePipeline, AFailingStageStopsEveryStageAndIsRethrown) {
  for (const bool overlap : {false, true}) {
    Log log;
    try {
      (void)pipeline::run(10, overlap, overlap ? 3 : 1, logged(log, 4));
      ADD_FAILURE() << "no error";
    } catch (const Error& error) {
      EXPECT_STREQ(error.what(), "disk gone");
    }
    for (int k = 4; k < 10; ++k) {
      EXPECT_EQ(log.at("s" + std::to_string(k) + "/" + std::to_string(overlap ? k % 3 : 0)), -1);
    }
    if (!overlap) {
      EXPECT_GE(log.at("w3/0"), 0); // in turn, what came before was written
    }
  }
}

TEST(OutOfCorePipeline, AFailingStageLeavesNoSimulationBegunAndNotSettled) {
  for (const bool overlap : {false, true}) {
    for (int round = 0; round < 20; ++round) {     // thread timing varies
      for (const char failing : {'r', 's', 'e'}) { // the stage that fails at item 4
        Log log;
        pipeline::Stages stages = logged(log, failing == 'r' ? 4 : -1, failing == 's' ? 4 : -1);
        stages.settle = [&log, failing](int k, int s) {
          log.add('e', k, s); // tried
          if (failing == 'e' && k == 4) throw Error("the GPU failed");
        };
        EXPECT_THROW((void)pipeline::run(10, overlap, overlap ? 3 : 1, stages), Error);
        for (int k = 0; k < 10; ++k) {
          const std::string item = std::to_string(k) + "/" + std::to_string(overlap ? k % 3 : 0);
          EXPECT_EQ(log.at("s" + item) >= 0, log.at("e" + item) >= 0) << k << failing;
        }
      }
    }
  }
}

TEST(OutOfCorePassLog, SaysAPassOnceTheIntervalHasGoneBy) {
  using std::chrono::seconds;
  const pipeline::PassLog::Clock::time_point start;
  std::ostringstream out;
  pipeline::PassLog log(out, "cuda-outofcore", 16, seconds(10), start);
  log.ended(1, 1024, {.read = 2, .simulate = 1, .write = 4}, start + seconds(7)); // too soon
  EXPECT_EQ(out.str(), "");
  log.ended(2, 2048, {.read = 2.31, .simulate = 0.5, .write = 4}, start + seconds(14));
  EXPECT_EQ(out.str(), "cuda-outofcore: pass 2 of 16 took 7.0 s, to generation 2048: read 2.3 s, "
                       "simulate 0.5 s, write 4.0 s\n");
  log.ended(3, 3072, {}, start + seconds(21)); // 7 s after the last line
  log.ended(4, 4096, {.read = 1, .simulate = 1, .write = 1}, start + seconds(24));
  EXPECT_EQ(out.str().substr(out.str().find('\n') + 1),
            "cuda-outofcore: pass 4 of 16 took 3.0 s, to generation 4096: read 1.0 s, simulate "
            "1.0 s, write 1.0 s\n");
}

} // namespace
} // namespace lifebench
