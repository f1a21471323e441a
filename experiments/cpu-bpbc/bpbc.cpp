// Fujita, Nakano, Ito (seed 003), the bit-per-cell CPU implementation of Table 1: 64
// cells per 64-bit word, the eight neighbour words of every word shifted into alignment
// and summed by Algorithm SINGLE-WORD (34 operations per word) or DOUBLE-WORD (59
// operations per two vertically adjacent words), one thread.
#include "cpu/bpbc_rows.hpp"

LIFEBENCH_EXPERIMENT(lifebench::packed_rows::words_experiment<lifebench::packed_rows::Simulator>(
    {.about = {"cpu-bpbc", "square", "cpu",
               "seed 003 Sections 4-5 and 9, bit-per-cell CPU (Table 1, SINGLE-WORD and "
               "DOUBLE-WORD)",
               "64 cells per 64-bit word, neighbour words shifted into alignment and summed "
               "bitwise (34 operations per word, or 59 per two words), one thread"},
     .axes = {lifebench::packed_rows::words_axis()}}))
