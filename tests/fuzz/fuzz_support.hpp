// What the fuzz targets share: a check that stops the run as a finding, and the input as
// a file for readers that take a path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace lifebench::fuzz {

/// The input as text.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Stops the run, as a crash would, when a property of the parsers does not hold: libFuzzer
/// then keeps the input.
inline void require(bool holds, const char* what) {
  if (!holds) {
    std::fprintf(stderr, "fuzz property does not hold: %s\n", what);
    std::abort();
  }
}

/// Whether the input starts as gzip data does (bytes 1f 8b).
inline bool looks_gzipped(std::string_view text) {
  return text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f &&
         static_cast<unsigned char>(text[1]) == 0x8b;
}

/// A file of this process, rewritten with each input, for readers that open a path; its
/// extension tells the readers its format. It lies in memory (/dev/shm) where it can: on
/// a disk, writing it takes most of the time.
class InputFile {
public:
  explicit InputFile(const std::string& extension)
      : path_(folder() / ("lifebench-fuzz-" + std::to_string(::getpid()) + extension)) {}
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Writes `text` as the file's whole content and returns its path.
  [[nodiscard]] const std::filesystem::path& holding(std::string_view text) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    require(!out.fail(), "the input could not be written to a temporary file");
    return path_;
  }

private:
  static std::filesystem::path folder() {
    std::error_code error;
    return std::filesystem::is_directory("/dev/shm", error)
               ? "/dev/shm"
               : std::filesystem::temp_directory_path();
  }

  std::filesystem::path path_;
};

} // namespace lifebench::fuzz
