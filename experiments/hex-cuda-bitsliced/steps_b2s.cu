// hex-cuda-bitsliced's kernels for B2/SH (steps.cuh says why a source of their own).
#include "steps_kernels.cuh"

namespace lifebench::hex_bitsliced {

template void enqueue_on<true>(const Launch& launch, const B2S& rule, const B2S& half_rule);
template void enqueue_on<false>(const Launch& launch, const B2S& rule, const B2S& half_rule);

} // namespace lifebench::hex_bitsliced
