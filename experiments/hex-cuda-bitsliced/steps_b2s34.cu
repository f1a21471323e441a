// hex-cuda-bitsliced's kernels for B2/S34H (steps.cuh says why a source of their own).
#include "steps_kernels.cuh"

namespace lifebench::hex_bitsliced {

template void enqueue_on<true>(const Launch& launch, const B2S34& rule, const B2S34& half_rule);
template void enqueue_on<false>(const Launch& launch, const B2S34& rule, const B2S34& half_rule);

} // namespace lifebench::hex_bitsliced
