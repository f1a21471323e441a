// Seed 001, "Shared Memory" (v1): 2D blocks of tile x tile threads, each thread loading
// one cell of an input tile (the output tile plus a one-cell halo), walking z_iter
// planes along z. Three shared planes roll forward (z - 1, z, z + 1), so a block reads
// each of its z_iter + 2 planes from global memory once instead of three times.
#include "cuda/buffered_simulator.cuh"
#include "cuda/cube3d.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/experiment.hpp"

#include <memory>

namespace lifebench {
namespace {

template <int Tile, bool Torus>
__global__ void __launch_bounds__(Tile* Tile)
    shared_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                cube::Size size, unsigned z_iter, cube::MaskRule rule) {
  __shared__ std::uint8_t planes[3][Tile][Tile];
  constexpr int kOutputTile = Tile - 2;
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  // This thread's cell of the input tile: from one cell before the output tile.
  const int x = static_cast<int>(blockIdx.x) * kOutputTile + tx - 1;
  const int y = static_cast<int>(blockIdx.y) * kOutputTile + ty - 1;
  const int width = static_cast<int>(size.width);
  const int height = static_cast<int>(size.height);
  const int depth = static_cast<int>(size.depth);
  const bool inside_xy = x >= 0 && x < width && y >= 0 && y < height;
  // Torus: positions past either edge (the halo, or a partial tile's tail) wrap around.
  // (Unsigned products: a plane may hold up to 2^32 cells.)
  const auto row = static_cast<unsigned>(Torus ? (y + height) % height : y);
  const auto column = static_cast<unsigned>(Torus ? (x + width) % width : x);
  const unsigned in_plane = Torus || inside_xy ? row * size.width + column : 0U;
  const unsigned plane = size.width * size.height;
  const auto load = [&](int z) -> std::uint8_t {
    if constexpr (Torus) {
      const int zw = z < 0 ? depth - 1 : (z == depth ? 0 : z);
      return in[static_cast<unsigned>(zw) * plane + in_plane];
    } else {
      return inside_xy && z >= 0 && z < depth ? in[static_cast<unsigned>(z) * plane + in_plane]
                                              : std::uint8_t{0};
    }
  };
  // Only interior threads whose cell lies in the grid (not past a partial tile) write.
  const bool writes = tx >= 1 && tx <= kOutputTile && ty >= 1 && ty <= kOutputTile && inside_xy;
  const int z_begin = static_cast<int>(blockIdx.z * z_iter);
  const int z_end = min(z_begin + static_cast<int>(z_iter), depth);

  planes[0][ty][tx] = load(z_begin - 1);
  planes[1][ty][tx] = load(z_begin);
  int back = 0; // slot of plane z - 1; z and z + 1 follow cyclically
  for (int z = z_begin; z < z_end; ++z) {
    const int middle = back == 2 ? 0 : back + 1;
    const int front = middle == 2 ? 0 : middle + 1;
    planes[front][ty][tx] = load(z + 1);
    __syncthreads();
    if (writes) {
      unsigned sum = 0; // the 27 cells, this one included
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx) {
          sum += planes[back][ty + dy][tx + dx] + planes[middle][ty + dy][tx + dx] +
                 planes[front][ty + dy][tx + dx];
        }
      }
      const unsigned alive = planes[middle][ty][tx];
      out[static_cast<unsigned>(z) * plane + in_plane] = rule.next(alive, sum - alive);
    }
    __syncthreads(); // the next plane overwrites slot `back`, still read above
    back = middle;
  }
}

template <int Tile>
void launch_shared(const std::uint8_t* in, std::uint8_t* out, cube::Size s, unsigned z_iter,
                   bool torus, cube::MaskRule rule, cudaStream_t stream) {
  constexpr unsigned output_tile = Tile - 2;
  const dim3 grid((s.width + output_tile - 1) / output_tile,
                  (s.height + output_tile - 1) / output_tile, (s.depth + z_iter - 1) / z_iter);
  const dim3 block(Tile, Tile);
  if (torus) {
    shared_step<Tile, true><<<grid, block, 0, stream>>>(in, out, s, z_iter, rule);
  } else {
    shared_step<Tile, false><<<grid, block, 0, stream>>>(in, out, s, z_iter, rule);
  }
}

class SharedSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  SharedSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem), tile_(static_cast<int>(params.get_int("tile"))),
        z_iter_(static_cast<unsigned>(params.get_int("z_iter"))) {}

private:
  void launch(std::uint64_t generations) override {
    const auto one = tile_ == 16 ? launch_shared<16> : launch_shared<32>;
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      one(in, out, cube::size_of(problem()), z_iter_, torus(), cube::rule_of(problem()), stream());
    });
  }

  int tile_;
  unsigned z_iter_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cube::unsupported(problem)) return reason;
  const Shape& shape = problem.shape;
  const std::int64_t z_iter = params.get_int("z_iter");
  const std::int64_t output_tile = params.get_int("tile") - 2;
  if (shape.width >= (std::int64_t{1} << 30) || shape.height >= (std::int64_t{1} << 30)) {
    return std::string("width and height must be below 2^30 (signed 32-bit coordinates)");
  }
  if (auto reason = cuda::beyond_grid_yz("height", shape.height, output_tile,
                                         "tiles of " + std::to_string(output_tile) + " rows")) {
    return reason;
  }
  return cuda::beyond_grid_yz("depth", shape.depth, z_iter,
                              "z_iter=" + std::to_string(z_iter) + " planes a block");
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda3d-shared", "3d", "cuda", "seed 001, Shared Memory (v1)",
              "one byte per cell; 2D blocks over an input tile with a one-cell halo walk "
              "z_iter planes along z through three rolling shared-memory planes"},
    .axes = {{.name = "tile",
              .default_value = "32",
              .allowed = {"16", "32"},
              .description = "input tile side = threads per block side (the seed's "
                             "INPUT_TILE); the output tile is two cells smaller"},
             {.name = "z_iter",
              .default_value = "16",
              .allowed = {"8", "16", "24"},
              .description = "planes one block walks along z (the seed's Z_ITER)"}},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::shared_step<32, true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::SharedSimulator>})
