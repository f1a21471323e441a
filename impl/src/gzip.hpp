// gzip-compressed pattern files (".rle.gz", as Golly reads and writes them), through zlib.
#pragma once

#include <istream>
#include <string>

namespace lifebench::detail {

/// Whether `in` starts with gzip's bytes 1f 8b; `in` is left where it was.
bool starts_as_gzip(std::istream& in);

/// The text a gzip stream holds (several members one after another read as one). Throws
/// Error, naming `source`, where `in` is not gzip data, is damaged or ends early, or holds
/// more than this machine's memory.
std::string gunzip(std::istream& in, const std::string& source);

} // namespace lifebench::detail
