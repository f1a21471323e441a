// The HPCGame 3D format (.dat): any bytes read or are refused with lifebench::Error, and a
// universe that reads is written back byte for byte.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "lifebench/format3d.hpp"

#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lifebench;
  const std::string bytes(fuzz::text_of(data, size));
  std::istringstream in(bytes);
  Universe3D universe;
  try {
    universe = read_3d(in, "fuzz.dat");
  } catch (const Error&) {
    return 0;
  }
  std::ostringstream out;
  write_3d(out, universe.cells, universe.generation);
  fuzz::require(out.str() == bytes, "a universe that reads is written back differently");
  return 0;
}
