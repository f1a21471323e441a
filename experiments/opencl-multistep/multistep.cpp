// Seed 000, "Multi-Step Simulation": up to 16 generations per launch on 64-cell
// strips around each word (the half-column shift), rows swapped between the
// work-items of a work-group through global memory.
#include "opencl/strip.hpp"

LIFEBENCH_EXPERIMENT(lifebench::opencl::strip_experiment({
    .about = {"opencl-multistep", "square", "opencl",
              "seed 000 \"OpenCL\" / \"Multi-Step Simulation\"",
              "32-bit words, 16 generations per launch on half-column-shifted 64-cell strips "
              "with 16 rows of padding per 512-row work-group, rows swapped through global "
              "memory"},
    .kernel = "multistep.cl",
    .exchange_local = false,
    .has_work_per_thread = false,
}))
