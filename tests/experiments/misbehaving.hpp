// A simulator that is correct until its timed advance() is asked for more than
// `kVerifiedGenerations` at once, then misbehaves (crashes, hangs or spoils its grid): it
// passes verification, so the fault happens where a real kernel's would, while timing.
// Its reference simulation is its one phase, "simulate", so that the harness's
// phase statistics are checked on a configuration that times correctly.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/reference.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace lifebench::testing {

template <typename Fault> class MisbehavingSimulator final : public Simulator {
public:
  MisbehavingSimulator(const Problem& problem, Fault fault)
      : problem_(problem), fault_(std::move(fault)) {}
  void upload(const Grid& grid) override { grid_ = grid; }
  Grid download() override { return grid_; }
  void advance(std::uint64_t generations) override {
    const auto start = std::chrono::steady_clock::now();
    grid_ = reference_advance(problem_, grid_, generations);
    simulate_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (generations > kVerifiedGenerations) fault_(grid_);
  }
  [[nodiscard]] std::map<std::string, double> phase_seconds() const override {
    return {{"simulate", simulate_seconds_}};
  }
  static constexpr std::uint64_t kVerifiedGenerations = 8;

private:
  Problem problem_;
  Grid grid_;
  Fault fault_;
  double simulate_seconds_ = 0;
};

template <typename Fault>
ExperimentInfo misbehaving_experiment(const char* name, const char* technique, Fault fault) {
  return ExperimentInfo{
      .about = {name, "square", "cpu", "test-only", technique},
      .axes = {},
      .make = [fault](const Problem& problem, const Params&) -> std::unique_ptr<Simulator> {
        return std::make_unique<MisbehavingSimulator<Fault>>(problem, fault);
      }};
}

} // namespace lifebench::testing
