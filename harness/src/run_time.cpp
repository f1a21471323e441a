#include "run_time.hpp"

#include <ostream>
#include <sstream>

namespace lifebench::harness {

void print_run_time(std::ostream& out, const std::string& experiment, const Problem& problem,
                    std::uint64_t generations, double seconds, const std::string& clock) {
  if (generations == 0) return;
  std::ostringstream line;
  line.precision(3);
  line << experiment << ": " << generations << " generations of " << problem.to_string() << " in "
       << seconds << " s";
  if (seconds > 0) {
    line << " (" << double(problem.shape.cells()) * double(generations) / seconds
         << " cell updates/s, " << clock << ")";
  }
  out << line.str() << std::endl;
}

} // namespace lifebench::harness
