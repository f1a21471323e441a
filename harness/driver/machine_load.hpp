// What else loaded the machine while a run measured, as far as the driver can tell from
// /proc: the load average and the other lifebench processes. A manifest records it, so that
// figures taken on a shared machine say so.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace lifebench::driver {

/// "1234: 'lifebench bench --sweep cpu ...'" of process `pid`: its command line, the program
/// without its folder, cut to a line; "1234" where it cannot be read.
std::string describe_process(pid_t pid);

/// The manifest's "load" at the start of a run: the 1-minute load average and the other
/// lifebench processes running now (results.schema.json, $defs/load).
nlohmann::json load_at_start();

/// Completes `load` at the end of the run: the load average, and the other lifebench
/// processes running now added to those seen at the start.
void note_load_at_end(nlohmann::json& load);

} // namespace lifebench::driver
