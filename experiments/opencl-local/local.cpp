// Seed 000, "Shared Memory": opencl-multistep with the rows swapped between the
// work-items of a work-group through local memory.
#include "opencl/strip.hpp"

LIFEBENCH_EXPERIMENT(lifebench::opencl::strip_experiment({
    .about = {"opencl-local", "square", "opencl",
              "seed 000 \"OpenCL\" / \"Multi-Step Simulation\" + \"Shared Memory\"",
              "32-bit words, 16 generations per launch on half-column-shifted 64-cell strips "
              "with 16 rows of padding per 512-row work-group, rows swapped through local "
              "memory"},
    .kernel = "local.cl",
    .exchange_local = true,
    .has_work_per_thread = false,
}))
