// opencl-multistep: the work-items of a work-group swap their rows through global
// memory between steps, one row per work-item (the kernel is kernels/opencl/strip.cl).
#define EXCHANGE_LOCAL 0
#include "strip.cl"
