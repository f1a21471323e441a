// opencl-wpt: work_per_thread rows per work-item, the top and bottom ones swapped
// through local memory between steps (the kernel is kernels/opencl/strip.cl; WPT
// comes from the host).
#define EXCHANGE_LOCAL 1
#include "strip.cl"
