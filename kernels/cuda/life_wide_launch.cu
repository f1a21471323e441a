// life_wide.cuh's launch by the configuration's way of shifting, and whether its kernels
// can run here.
#include "cuda/error.cuh"
#include "cuda/life_wide.cuh"

namespace lifebench::cuda::life_wide {

namespace {

/// A kernel of this library: the device can run it where it can run the others, all of the
/// library's sources being compiled for one list of architectures (CMAKE_CUDA_ARCHITECTURES).
__global__ void probe() {}

/// `call.template operator()<How>()` for the Shifts `how`: the kernels compiled for it.
template <class Call> auto with_shifts(Shifts how, Call&& call) {
  switch (how) {
  case Shifts::funnel:
    return call.template operator()<Shifts::funnel>();
  case Shifts::multiply:
    return call.template operator()<Shifts::multiply>();
  default:
    return call.template operator()<Shifts::mixed>();
  }
}

} // namespace

std::optional<std::string> unavailable() {
  return unavailable_reason(&probe);
}

int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations,
           cudaStream_t stream) {
  const int done = with_shifts(config.shifts, [&]<Shifts How>() {
    return detail::launch<How>(config, in, out, words_per_row, height, generations, stream);
  });
  LIFEBENCH_CUDA_CHECK_LAUNCH();
  return done;
}

void launch_persistent(const Config& config, std::uint32_t* a, std::uint32_t* b,
                       unsigned words_per_row, unsigned height, unsigned passes, unsigned* progress,
                       cudaStream_t stream) {
  with_shifts(config.shifts, [&]<Shifts How>() {
    detail::launch_persistent<How>(config, a, b, words_per_row, height, passes, progress, stream);
  });
  LIFEBENCH_CUDA_CHECK_LAUNCH();
}

} // namespace lifebench::cuda::life_wide
