// Decompressing gzip with zlib's inflate, one member after another.
#include "gzip.hpp"

#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <zlib.h>

namespace lifebench::detail {
namespace {

/// zlib's stream, ended however the decompression ends.
class Inflater {
public:
  Inflater() {
    // 16 + MAX_WBITS: gzip's header and trailer, and nothing else (no raw or zlib streams).
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw Error("zlib cannot start");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& operator*() { return stream_; }

private:
  z_stream stream_{};
};

} // namespace

bool starts_as_gzip(std::istream& in) {
  const auto start = in.tellg();
  std::array<char, 2> magic{};
  in.read(magic.data(), magic.size());
  const bool gzip = in.gcount() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
                    static_cast<unsigned char>(magic[1]) == 0x8b;
  in.clear();
  in.seekg(start);
  return gzip;
}

std::string gunzip(std::istream& in, const std::string& source) {
  std::string packed = read_text(in, source);
  if (packed.size() < 2 || static_cast<unsigned char>(packed[0]) != 0x1f ||
      static_cast<unsigned char>(packed[1]) != 0x8b) {
    throw Error(source + ": not gzip data (it does not start with gzip's bytes 1f 8b)");
  }
  const std::uint64_t memory = host_memory_bytes();
  Inflater inflater;
  z_stream& z = *inflater;
  z.next_in = reinterpret_cast<Bytef*>(packed.data());
  z.avail_in = 0;
  std::size_t unread = packed.size();
  std::string text;
  std::array<char, 1 << 16> chunk{};
  for (;;) {
    if (z.avail_in == 0 && unread > 0) {
      z.avail_in = static_cast<uInt>(std::min<std::size_t>(unread, 1U << 30U));
      unread -= z.avail_in;
    }
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());
    z.avail_out = static_cast<uInt>(chunk.size());
    const int status = inflate(&z, Z_NO_FLUSH);
    text.append(chunk.data(), chunk.size() - z.avail_out);
    if (memory != 0 && text.size() > memory) {
      throw Error(source + ": the gzip data holds more than this machine's " +
                  std::to_string(memory >> 20) + " MiB");
    }
    if (status == Z_STREAM_END) {
      if (z.avail_in == 0 && unread == 0) return text;
      // Another member follows, as gzip writes concatenated files.
      if (inflateReset(&z) != Z_OK) throw Error("zlib cannot restart");
      continue;
    }
    if (status == Z_BUF_ERROR && z.avail_in == 0 && unread == 0) {
      throw Error(source + ": the gzip data ends early (the file is cut short)");
    }
    if (status != Z_OK && status != Z_BUF_ERROR) {
      throw Error(source + ": damaged gzip data (zlib: " +
                  (z.msg != nullptr ? std::string(z.msg) : "error " + std::to_string(status)) +
                  ")");
    }
  }
}

} // namespace lifebench::detail
