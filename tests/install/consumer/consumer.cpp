// A glider on a 16 x 16 torus, advanced by lifebench's reference simulator, and one word of
// 64 cells advanced by the kernels' bit-parallel adder: both must agree with the rules.
#include "common/bpbc.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/reference.hpp"

#include <cstdint>
#include <iostream>
#include <utility>

int main() {
  const lifebench::RuleSpec spec = lifebench::parse_rule_spec("B3/S23:T16,16");
  const lifebench::Problem problem{spec.rule, *spec.shape, spec.boundary};
  lifebench::Grid glider(problem.shape);
  for (const auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}})
    glider.set(x, y, 1);
  const lifebench::Grid moved = lifebench::reference_advance(problem, glider, 4);
  int live = 0;
  bool shifted = true;
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      live += moved.at(x, y);
      shifted = shifted && moved.at(x, y) == glider.at((x + 15) % 16, (y + 15) % 16);
    }
  }
  // A blinker's centre row, three cells in bits 1..3, with empty rows above and below: the
  // centre of the vertical phase survives, its ends die.
  const std::uint64_t row = 0b1110, none = 0;
  const std::uint64_t next = lifebench::bpbc::single_word<std::uint64_t>(
      none, none, none, row << 1, row >> 1, none, none, none, row);
  if (live != 5 || !shifted || next != 0b0100) {
    std::cerr << "consumer: wrong result: " << live << " live, shifted " << shifted << ", word "
              << next << "\n";
    return 1;
  }
  std::cout << "consumer: a glider and a blinker as the rules say\n";
  return 0;
}
