#include <chrono>
#include <thread>

#include "misbehaving.hpp"

LIFEBENCH_EXPERIMENT(lifebench::testing::misbehaving_experiment(
    "test-hang", "reference simulator that never returns when timed", [] {
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }))
