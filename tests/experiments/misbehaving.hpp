// A simulator that is correct until its timed advance() is asked for more than
// `kVerifiedGenerations` at once, then misbehaves (crashes or hangs): it passes
// verification, so the fault happens where a real kernel's would, while timing.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/reference.hpp"

#include <cstdint>
#include <utility>

namespace lifebench::testing {

template <typename Fault> class MisbehavingSimulator final : public Simulator {
public:
  MisbehavingSimulator(const Problem& problem, Fault fault)
      : problem_(problem), fault_(std::move(fault)) {}
  void upload(const Grid& grid) override { grid_ = grid; }
  Grid download() override { return grid_; }
  void advance(std::uint64_t generations) override {
    if (generations > kVerifiedGenerations) fault_();
    grid_ = reference_advance(problem_, grid_, generations);
  }
  static constexpr std::uint64_t kVerifiedGenerations = 8;

private:
  Problem problem_;
  Grid grid_;
  Fault fault_;
};

template <typename Fault>
ExperimentInfo misbehaving_experiment(const char* name, const char* technique, Fault fault) {
  return ExperimentInfo{
      .name = name,
      .family = "square",
      .backend = "cpu",
      .source = "test-only",
      .technique = technique,
      .axes = {},
      .make = [fault](const Problem& problem, const Params&) -> std::unique_ptr<Simulator> {
        return std::make_unique<MisbehavingSimulator<Fault>>(problem, fault);
      }};
}

} // namespace lifebench::testing
