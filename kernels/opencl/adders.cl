// Bit-sliced adders shared by the OpenCL experiments: each of the 32 bit
// positions of a word adds its own column of one-bit inputs.
#ifndef LIFEBENCH_ADDERS_CL
#define LIFEBENCH_ADDERS_CL

/// Full adder: a + b + c = 2 * carry + sum, bit by bit.
void add3(uint a, uint b, uint c, uint* carry, uint* sum) {
  const uint partial = a ^ b;
  *sum = partial ^ c;
  *carry = (a & b) | (partial & c);
}

/// Half adder: a + b = 2 * carry + sum, bit by bit.
void add2(uint a, uint b, uint* carry, uint* sum) {
  *sum = a ^ b;
  *carry = a & b;
}

#endif
