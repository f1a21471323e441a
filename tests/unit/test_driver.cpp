// The driver's core without processes: a configuration's name and command line, sweep
// expansion, which earlier results a resumed run keeps, and benchmarks.json's aggregates.
#include "bench_plan.hpp"
#include "google_benchmark_json.hpp"
#include "lifebench/configuration.hpp"
#include "lifebench/params.hpp"
#include "sweep.hpp"
#include "sweep_progress.hpp"
#include "test_support.hpp"

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

namespace lifebench::driver {
namespace {

using testing::thrown_message;

/// A configuration of an experiment "fake" on a 16x16 torus.
Configuration fake_configuration() {
  Configuration c;
  c.experiment = "fake";
  c.problem = parse_problem("B3/S23:T16,16");
  c.generations = 4;
  c.params = {{"threads", "1"}, {"mode", "ok"}};
  return c;
}

/// What an experiment executable's `bench` reads of `argv` (to_argv's output).
Configuration read_back(const std::vector<std::string>& argv) {
  CLI::App bench{"bench"};
  const ConfigurationOptions options(bench);
  std::vector<std::string> reversed(argv.rbegin(), argv.rend()); // CLI11 takes them backwards
  bench.parse(reversed);
  return options.from_argv("fake");
}

TEST(Configuration, NameIsTheConfigIdResultsFoldersHold) {
  Configuration c = fake_configuration();
  EXPECT_EQ(c.name(), "fake|B3/S23:T16,16|g4|mode=ok,threads=1");
  EXPECT_EQ(c.label(), "fake B3/S23:T16,16 g4 mode=ok threads=1");
  c.params.clear();
  c.density = 0.01;
  EXPECT_EQ(c.name(), "fake|B3/S23:T16,16|g4||density=0.01");
  EXPECT_EQ(c.label(), "fake B3/S23:T16,16 g4 density=0.01");
  EXPECT_EQ(name_fields(c.name()),
            (std::vector<std::string>{"fake", "B3/S23:T16,16", "g4", "", "density=0.01"}));
  EXPECT_EQ(name_fields("x|B3/S23:T8,8|g1"),
            (std::vector<std::string>{"x", "B3/S23:T8,8", "g1", ""}));
}

TEST(Configuration, ArgvReadsBackAsTheSameConfiguration) {
  Configuration c = fake_configuration();
  c.density = 0.1;
  c.warmup = 3;
  c.stopping = {.min_repetitions = 7, .max_repetitions = 9, .target_rel_ci = 0.02, .budget_s = 2.5};
  const std::vector<std::string> argv = to_argv(c, "out.json");
  const Configuration back = read_back(argv);
  EXPECT_EQ(back.name(), c.name());
  EXPECT_EQ(back.params, c.params);
  EXPECT_EQ(back.warmup, 3);
  EXPECT_EQ(back.stopping.min_repetitions, 7);
  EXPECT_EQ(back.stopping.max_repetitions, 9);
  EXPECT_DOUBLE_EQ(back.stopping.target_rel_ci, 0.02);
  EXPECT_DOUBLE_EQ(back.stopping.budget_s, 2.5);
}

TEST(Configuration, APatternIsNamedAsTheSweepWroteItAndPassedAsItsFile) {
  Configuration c = fake_configuration();
  c.params.clear();
  c.pattern = "datasets/acorn.rle";
  c.pattern_file = "/opt/lifebench/datasets/acorn.rle";
  EXPECT_EQ(c.name(), "fake|B3/S23:T16,16|g4||pattern=datasets/acorn.rle");
  c.offset = Position{3, 4};
  EXPECT_EQ(c.name(), "fake|B3/S23:T16,16|g4||pattern=datasets/acorn.rle@3,4");
  EXPECT_EQ(c.label(), "fake B3/S23:T16,16 g4 pattern=datasets/acorn.rle@3,4");

  const Configuration back = read_back(to_argv(c, "out.json"));
  EXPECT_EQ(back.pattern_file, c.pattern_file);
  EXPECT_EQ(back.pattern, c.pattern_file.string()); // the executable knows only the file
  EXPECT_EQ(back.offset, c.offset);
  EXPECT_EQ(back.density, std::nullopt);
}

TEST(Configuration, ArgvRefusesAMalformedOffset) {
  EXPECT_EQ(thrown_message([] {
              (void)read_back({"--problem", "B3/S23:T16,16", "--generations", "4", "--json-out",
                               "out.json", "--pattern", "acorn.rle", "--offset", "3"});
            }),
            "offset 3: expected X,Y, two whole numbers of cells from 0");
}

TEST(Configuration, ArgvRefusesAMaximumBelowTheMinimum) {
  Configuration c = fake_configuration();
  c.stopping.min_repetitions = 5;
  c.stopping.max_repetitions = 4;
  EXPECT_EQ(thrown_message([&] { (void)read_back(to_argv(c, "out.json")); }),
            "--max-repetitions 4 is below --repetitions 5");
}

TEST(Configuration, ParametersAreResolvedAgainstTheAxes) {
  const std::vector<Axis> axes = {{"threads", "4", {}, "threads"},
                                  {"mode", "ok", {"ok", "crash"}, "mode"}};
  Configuration c = fake_configuration();
  c.params = {{"threads", "2"}};
  EXPECT_EQ(c.resolved_params(axes).to_string(), "mode=ok,threads=2");
  c.params = {{"mode", "hang"}};
  EXPECT_NE(thrown_message([&] { (void)c.resolved_params(axes); }).find("is not allowed"),
            std::string::npos);
}

TEST(AxisRoles, NamedAsDescribeWritesThem) {
  for (const AxisRole role : {AxisRole::none, AxisRole::steps_per_launch, AxisRole::halo_steps,
                              AxisRole::gpu_count, AxisRole::host_folder}) {
    EXPECT_EQ(parse_axis_role(to_string(role)), role);
  }
  EXPECT_NE(thrown_message([] { (void)parse_axis_role("gpus"); }).find("unknown axis role"),
            std::string::npos);
}

/// A catalog of three experiments: "fake" on the CPU, "kernel" a one-GPU CUDA one, and
/// "spread" over several GPUs.
Catalog fake_catalog() {
  const std::vector<Axis> axes = {{"threads", "1", {}, "threads"},
                                  {"mode", "ok", {"ok", "crash"}, "mode"}};
  Catalog catalog;
  for (const auto& [name, backend] : {std::pair{"fake", "cpu"}, {"kernel", "cuda"}}) {
    Experiment e;
    e.name = name;
    e.family = "square";
    e.backend = backend;
    e.axes = axes;
    catalog.names.push_back(name);
    catalog.experiments.push_back(e);
  }
  Experiment spread = catalog.experiments.back();
  spread.name = "spread";
  spread.axes.push_back({"gpus", "2", {}, "GPUs", AxisRole::gpu_count});
  catalog.names.push_back(spread.name);
  catalog.experiments.push_back(spread);
  return catalog;
}

class Sweep : public testing::TempDirTest {
protected:
  std::vector<SweepConfiguration> expanded(const std::string& text) {
    write(file("sweep.toml"), text);
    return expand(read_sweep_file(file("sweep.toml"), catalog_, nullptr), catalog_);
  }
  Catalog catalog_ = fake_catalog();
};

TEST_F(Sweep, ExpandsShapesDensitiesAndParametersInOrder) {
  const auto configurations = expanded(R"([[run]]
experiment = "fake"
shape = ["8x8", "16x16"]
density = [0.25, 0.5]
generations = 2
params = { mode = ["ok", "crash"], threads = [1, 2] }
)");
  ASSERT_EQ(configurations.size(), 16U);
  EXPECT_EQ(configurations[0].name(), "fake|B3/S23:T8,8|g2|mode=ok,threads=1|density=0.25");
  EXPECT_EQ(configurations[1].name(), "fake|B3/S23:T8,8|g2|mode=ok,threads=2|density=0.25");
  EXPECT_EQ(configurations[2].name(), "fake|B3/S23:T8,8|g2|mode=crash,threads=1|density=0.25");
  EXPECT_EQ(configurations[4].name(), "fake|B3/S23:T8,8|g2|mode=ok,threads=1|density=0.5");
  EXPECT_EQ(configurations[8].name(), "fake|B3/S23:T16,16|g2|mode=ok,threads=1|density=0.25");
  EXPECT_EQ(configurations[0].info, catalog_.find("fake"));
  EXPECT_EQ(configurations[0].stopping.min_repetitions, 5);
}

TEST_F(Sweep, PatternsStartTheirOwnConfigurationsAtTheRunsOffset) {
  const auto configurations = expanded(R"([[run]]
experiment = "fake"
shape = "64x64"
pattern = ["datasets/acorn.rle", "golly:Life/Guns/gun.rle"]
offset = "3,4"
generations = 2
)");
  ASSERT_EQ(configurations.size(), 2U);
  EXPECT_EQ(configurations[0].name(), "fake|B3/S23:T64,64|g2||pattern=datasets/acorn.rle@3,4");
  EXPECT_EQ(configurations[1].name(), "fake|B3/S23:T64,64|g2||pattern=golly:Life/Guns/gun.rle@3,4");
  EXPECT_EQ(configurations[0].density, std::nullopt);
  EXPECT_EQ(configurations[0].pattern_file, std::filesystem::path()); // resolve_patterns finds it
}

TEST_F(Sweep, OneConfigurationOfTwoRunsFillsTheCellsOfBoth) {
  const auto configurations = expanded(R"([[run]]
experiment = "fake"
shape = "8x8"
generations = 2
table = "t"
row = "r"
column = ["a", "b"]

[[run]]
experiment = "fake"
shape = ["8x8", "16x16"]
generations = 2
ties = [{ table = "t", row = "r", column = "b" }, { table = "u", row = "r", column = "c" }]
)");
  ASSERT_EQ(configurations.size(), 2U);
  EXPECT_EQ(configurations[0].ties,
            (std::vector<Tie>{{"t", "r", "a"}, {"t", "r", "b"}, {"u", "r", "c"}}));
  EXPECT_EQ(configurations[1].ties, (std::vector<Tie>{{"t", "r", "b"}, {"u", "r", "c"}}));
}

TEST_F(Sweep, OneConfigurationMeasuredTwoWaysIsRefused) {
  const std::string message = thrown_message([&] {
    (void)expanded(R"([[run]]
experiment = "fake"
shape = "8x8"
generations = 2

[[run]]
experiment = "fake"
shape = "8x8"
generations = 2
repetitions = 9
)");
  });
  EXPECT_NE(message.find("configuration fake|B3/S23:T8,8|g2| is also in"), std::string::npos)
      << message;
}

/// An earlier result of `c` by the binary "0x1", timed as `c` asks.
nlohmann::json earlier_result(const SweepConfiguration& c) {
  return {{"status", "ok"},
          {"binary_hash", "0x1"},
          {"timing",
           {{"repetitions", c.stopping.min_repetitions},
            {"warmup", c.warmup},
            {"target_rel_ci", c.stopping.target_rel_ci}}}};
}

TEST(Resume, AResultStandsForTheSameBinaryAndMeasurement) {
  const Catalog catalog = fake_catalog();
  SweepConfiguration c;
  static_cast<Configuration&>(c) = fake_configuration();
  c.info = catalog.find("kernel");
  const nlohmann::json earlier = earlier_result(c);
  EXPECT_TRUE(still_valid(earlier, c, "0x1"));
  EXPECT_FALSE(still_valid(earlier, c, "0x2")); // rebuilt

  nlohmann::json more = earlier;
  more["timing"]["repetitions"] = c.stopping.min_repetitions + 1;
  EXPECT_TRUE(still_valid(more, c, "0x1"));
  for (const char* key : {"repetitions", "warmup", "target_rel_ci"}) {
    nlohmann::json other = earlier;
    other["timing"][key] = other["timing"][key].get<double>() - 0.001;
    EXPECT_FALSE(still_valid(other, c, "0x1")) << key;
  }

  nlohmann::json untimed = {{"status", "unsupported"}, {"binary_hash", "0x1"}};
  EXPECT_TRUE(still_valid(untimed, c, "0x1"));
  untimed["status"] = "unavailable"; // the device may be back
  EXPECT_FALSE(still_valid(untimed, c, "0x1"));
}

TEST(Resume, AResultMeasuredBesideOthersStandsOnlyWhereItWouldRunSoAgain) {
  const Catalog catalog = fake_catalog();
  SweepConfiguration c;
  static_cast<Configuration&>(c) = fake_configuration();
  nlohmann::json beside = earlier_result(c);
  beside["device"] = {{"cuda_visible_devices", "1"}};
  c.info = catalog.find("kernel");
  EXPECT_TRUE(runs_beside_others(*c.info));
  EXPECT_TRUE(still_valid(beside, c, "0x1"));
  for (const char* alone : {"fake", "spread"}) {
    c.info = catalog.find(alone);
    EXPECT_FALSE(runs_beside_others(*c.info)) << alone;
    EXPECT_FALSE(still_valid(beside, c, "0x1")) << alone;
  }
}

TEST(BenchmarksJson, RepetitionsThenTheirAggregates) {
  const nlohmann::json result = {{"config_id", "fake|B3/S23:T8,8|g1|"},
                                 {"status", "ok"},
                                 {"verification", {{"status", "passed"}}},
                                 {"timing", {{"seconds", {0.003, 0.001, 0.002}}}}};
  nlohmann::json failed = result;
  failed["status"] = "failed";
  const nlohmann::json document =
      google_benchmark_json(nlohmann::json::object(), {&result, &failed});
  const nlohmann::json& benchmarks = document["benchmarks"];
  ASSERT_EQ(benchmarks.size(), 7U); // three repetitions, four aggregates; none of the failed
  EXPECT_EQ(benchmarks[0]["name"], "fake|B3/S23:T8,8|g1|");
  EXPECT_DOUBLE_EQ(benchmarks[0]["real_time"].get<double>(), 3.0); // ms, in their order
  const auto aggregate = [&](std::size_t i) { return benchmarks[i]["real_time"].get<double>(); };
  EXPECT_EQ(benchmarks[4]["name"], "fake|B3/S23:T8,8|g1|_median");
  EXPECT_DOUBLE_EQ(aggregate(3), 2.0);   // mean
  EXPECT_DOUBLE_EQ(aggregate(4), 2.0);   // median
  EXPECT_NEAR(aggregate(5), 1.0, 1e-12); // stddev
  EXPECT_NEAR(aggregate(6), 0.5, 1e-12); // cv, a fraction
}

TEST(SweepProgress, EstimatesFromTheSameExperimentThenFromTheMedian) {
  // A minute a configuration of one experiment, seconds of another: the time left counts
  // each at its own experiment's mean, and one of an experiment not measured yet at the
  // median of all (a mean of them all would say 22 s for each of the four: 88 s).
  SweepProgress progress(std::vector<bool>(7, true), std::vector<std::optional<double>>(7),
                         std::vector<double>(7, 1.0),
                         {"slow", "slow", "slow", "fast", "fast", "fast", "other"});
  EXPECT_FALSE(progress.seconds_left());
  progress.measured(0, 60);
  progress.measured(3, 2);
  progress.measured(4, 4);
  EXPECT_DOUBLE_EQ(*progress.seconds_left(), 2 * 60.0 + 3.0 + 4.0);
}

TEST(SweepProgress, TakesAnEarlierRunsTimeWhereItHasOne) {
  SweepProgress progress({true, true, false}, {std::nullopt, 10.0, 99.0}, {1.0, 0.5, 1.0},
                         {"a", "a", "a"});
  progress.measured(0, 2);
  EXPECT_DOUBLE_EQ(*progress.seconds_left(), 0.5 * 10.0);
}

} // namespace
} // namespace lifebench::driver
