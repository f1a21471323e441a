#include "misbehaving.hpp"

#include <chrono>
#include <thread>

LIFEBENCH_EXPERIMENT(lifebench::testing::misbehaving_experiment(
    "test-hang", "reference simulator that never returns when timed", [](Grid&) {
      for (;;)
        std::this_thread::sleep_for(std::chrono::hours(1));
    }))
