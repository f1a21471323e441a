#include "misbehaving.hpp"

#include <csignal>

LIFEBENCH_EXPERIMENT(lifebench::testing::misbehaving_experiment(
    "test-crash", "reference simulator that raises SIGSEGV when timed",
    [](Grid&) { std::raise(SIGSEGV); }))
