// Seed 001's v2 ("Refine") simulator, which cuda3d-swar and cuda3d-pdl share (the
// latter with programmatic dependent launch): swar_step of cuda/cube3d.cuh on a byte
// grid, its parameter and what its geometry refuses.
#pragma once

#include "cuda/buffered_simulator.cuh"
#include "cuda/cube3d.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::cube {

/// v2, with or without programmatic dependent launch (cuda3d-swar, cuda3d-pdl).
template <bool Pdl> class SwarSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  SwarSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem), z_width_(static_cast<int>(params.get_int("z_width"))) {}

private:
  void launch(std::uint64_t generations) override {
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      launch_swar<Pdl>(in, out, size_of(problem()), z_width_, torus(), rule_of(problem()),
                       stream());
    });
  }

  int z_width_;
};

/// v2's geometry: one block of width/4 threads per row y and z_width planes.
inline std::optional<std::string> swar_unsupported(const Problem& problem, const Params& params) {
  if (auto reason = unsupported(problem)) return reason;
  const Shape& shape = problem.shape;
  const std::int64_t z_width = params.get_int("z_width");
  if (shape.width % 4 != 0) {
    return "width must be a multiple of 4 (four cells per uint32), not " +
           std::to_string(shape.width);
  }
  if (shape.width > 4096) {
    return "width must be at most 4096: one block of width/4 threads per row, at most 1024 "
           "threads per block; this one is " +
           std::to_string(shape.width);
  }
  if (shape.depth % z_width != 0) {
    return "depth must be a multiple of z_width=" + std::to_string(z_width) + ", not " +
           std::to_string(shape.depth);
  }
  if (auto reason = cuda::beyond_grid_yz("height", shape.height, 1, "a block row per row")) {
    return reason;
  }
  return cuda::beyond_grid_yz("depth", shape.depth, z_width,
                              "a block per z_width=" + std::to_string(z_width) + " planes");
}

inline Axis swar_z_width_axis() {
  return {.name = "z_width",
          .default_value = "4",
          .allowed = swar_z_widths,
          .description = "cells along z per thread (the seed's Z_WIDTH, 4)"};
}

} // namespace lifebench::cube
