// gzip-compressed pattern files (".rle.gz", as Golly reads and writes them), through zlib.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <streambuf>
#include <string>
#include <zlib.h>

namespace lifebench::detail {

/// Whether `in` starts with gzip's bytes 1f 8b; `in` is left where it was.
bool starts_as_gzip(std::istream& in);

/// The text a gzip stream holds (several members one after another read as one), inflated
/// as it is read, a window at a time: a reader on it holds no copy of the whole. Reading
/// throws Error, naming `source`, where the data is damaged or ends early, or expands more
/// than kMaxRatio times past kRatioFloor bytes (no pattern file Golly ships expands more
/// than 45 times; a decompression bomb a thousand times): refused after a few MiB, in a
/// fraction of a second, whatever it would expand to. An istream reading it passes the
/// Error on only with exceptions(std::ios::badbit).
class GzipBuffer : public std::streambuf {
public:
  static constexpr std::uint64_t kMaxRatio = 256;
  static constexpr std::uint64_t kRatioFloor = std::uint64_t{16} << 20;

  GzipBuffer(std::istream& packed, std::string source);
  ~GzipBuffer() override;
  GzipBuffer(const GzipBuffer&) = delete;
  GzipBuffer& operator=(const GzipBuffer&) = delete;

protected:
  int_type underflow() override;

private:
  /// Inflates into the window until some text comes out or the data ends; whether text did.
  bool inflate_some();
  /// Throws where the text has grown past the ratio limit.
  void check_ratio() const;

  std::istream& packed_;
  std::string source_;
  z_stream stream_{};
  bool packed_ended_ = false; ///< all of `packed_` has been handed to zlib
  bool ended_ = false;        ///< the last member is complete
  std::uint64_t packed_bytes_ = 0;
  std::uint64_t text_bytes_ = 0;
  std::array<char, 1 << 16> in_{};
  std::array<char, 1 << 16> out_{};
};

} // namespace lifebench::detail
