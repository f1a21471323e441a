// hex-cuda-bitsliced's kernels for any other rule, read at run time, on the torus (steps.cuh says
// why a source of their own).
#include "steps_kernels.cuh"

namespace lifebench::hex_bitsliced {

template void enqueue_on<true>(const Launch& launch, const hex::RuntimeRule<Word>& rule,
                               const hex::RuntimeRule<Half>& half_rule);

} // namespace lifebench::hex_bitsliced
