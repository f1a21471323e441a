// opencl-local: the work-items of a work-group swap their rows through local memory
// between steps, one row per work-item (the kernel is kernels/opencl/strip.cl).
#define EXCHANGE_LOCAL 1
#include "strip.cl"
