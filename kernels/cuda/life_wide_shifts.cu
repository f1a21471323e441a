// life_wide.cuh's kernels for one way of shifting the neighbour words into place
// (LIFEBENCH_LIFE_WIDE_SHIFTS: funnel, multiply or mixed), in a translation unit of their
// own: the three compile side by side (kernels/CMakeLists.txt), where every experiment that
// ran these kernels compiled all of them before.
#include "cuda/life_wide_kernels.cuh"

#ifndef LIFEBENCH_LIFE_WIDE_SHIFTS
#error "LIFEBENCH_LIFE_WIDE_SHIFTS (funnel, multiply or mixed) names the kernels to compile"
#endif

namespace lifebench::cuda::life_wide {

template int detail::launch<Shifts::LIFEBENCH_LIFE_WIDE_SHIFTS>(const Config&, const std::uint32_t*,
                                                                std::uint32_t*, unsigned, unsigned,
                                                                std::uint64_t, cudaStream_t);
template void
detail::launch_persistent<Shifts::LIFEBENCH_LIFE_WIDE_SHIFTS>(const Config&, std::uint32_t*,
                                                              std::uint32_t*, unsigned, unsigned,
                                                              unsigned, unsigned*, cudaStream_t);

} // namespace lifebench::cuda::life_wide
