// Seed 000, "Work-Per-Thread": opencl-local with work_per_thread vertically
// stacked rows per work-item, only the top and bottom ones swapped through local
// memory. The blog's final OpenCL kernel.
#include "opencl/strip.hpp"

LIFEBENCH_EXPERIMENT(lifebench::opencl::strip_experiment({
    .about = {"opencl-wpt", "square", "opencl",
              "seed 000 \"OpenCL\" / \"Multi-Step Simulation\" + \"Shared Memory\" + "
              "\"Work-Per-Thread\"",
              "32-bit words, 16 generations per launch on half-column-shifted 64-cell strips, "
              "16 rows per work-item, 512 work-items stacked per work-group, edge rows "
              "swapped through local memory"},
    .kernel = "wpt.cl",
    .exchange_local = true,
    .has_work_per_thread = true,
}))
