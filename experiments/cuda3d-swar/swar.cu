// Seed 001, "Refine" (v2): four cells per uint32 summed byte-wise, z_width cells per
// thread along z, one 1D block of width/4 threads per row, the x neighbours added
// through shared memory. The kernel is in kernels/cuda/cube3d.cuh, shared with
// cuda3d-pdl (the same kernel launched with programmatic dependent launch).
#include "cuda/cube3d.cuh"
#include "cuda/cube_simulator.cuh"

#include <memory>

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda3d-swar", "3d", "cuda", "seed 001, Refine (v2)",
              "four cells per uint32 with byte-wise sums, z_width cells per thread along z, "
              "blocks of width/4 threads, x neighbours through shared memory"},
    .axes = {lifebench::cube::swar_z_width_axis()},
    .unavailable = lifebench::cuda::unavailable_for<lifebench::cube::swar_kernel<4, true, false>()>,
    .unsupported = lifebench::cube::swar_unsupported,
    .make = lifebench::make_simulator<lifebench::cube::SwarSimulator<false>>})
