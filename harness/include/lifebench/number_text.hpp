// Numbers written so that they read back exactly, for the experiment executables and the
// driver alike: a density in ids and argv, a ratio in a result's device record.
#pragma once

#include <string>

namespace lifebench {

/// The shortest text that reads back as `value`.
std::string number_text(double value);

} // namespace lifebench
