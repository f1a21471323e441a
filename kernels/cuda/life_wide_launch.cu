// life_wide.cuh's launch by the configuration's way of shifting, and whether its kernels
// can run here.
#include "cuda/error.cuh"
#include "cuda/life_wide.cuh"

namespace lifebench::cuda::life_wide {

namespace {

/// A kernel of this library: the device can run it where it can run the others, all of the
/// library's sources being compiled for one list of architectures (CMAKE_CUDA_ARCHITECTURES).
__global__ void probe() {}

} // namespace

std::optional<std::string> unavailable() {
  return unavailable_reason(&probe);
}

int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations,
           cudaStream_t stream) {
  int done = 0;
  switch (config.shifts) {
  case Shifts::funnel:
    done =
        detail::launch<Shifts::funnel>(config, in, out, words_per_row, height, generations, stream);
    break;
  case Shifts::multiply:
    done = detail::launch<Shifts::multiply>(config, in, out, words_per_row, height, generations,
                                            stream);
    break;
  default:
    done =
        detail::launch<Shifts::mixed>(config, in, out, words_per_row, height, generations, stream);
    break;
  }
  LIFEBENCH_CUDA_CHECK_LAUNCH();
  return done;
}

} // namespace lifebench::cuda::life_wide
