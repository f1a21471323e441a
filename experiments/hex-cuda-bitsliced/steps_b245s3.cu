// hex-cuda-bitsliced's kernels for B245/S3H (steps.cuh says why a source of their own).
#include "steps_kernels.cuh"

namespace lifebench::hex_bitsliced {

template void enqueue_on<true>(const Launch& launch, const B245S3& rule, const B245S3& half_rule);
template void enqueue_on<false>(const Launch& launch, const B245S3& rule, const B245S3& half_rule);

} // namespace lifebench::hex_bitsliced
