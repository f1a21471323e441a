// Inflating gzip with zlib's streaming inflate, a window at a time, one member after another.
#include "gzip.hpp"

#include "lifebench/error.hpp"

#include <utility>

namespace lifebench::detail {

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

GzipBuffer::GzipBuffer(std::istream& packed, std::string source)
    : packed_(packed), source_(std::move(source)) {
  // 16 + MAX_WBITS: gzip's header and trailer, and nothing else (no raw or zlib streams).
  if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw Error("zlib cannot start");
}

GzipBuffer::~GzipBuffer() {
  inflateEnd(&stream_);
}

GzipBuffer::int_type GzipBuffer::underflow() {
  if (gptr() == egptr() && !inflate_some()) return traits_type::eof();
  return traits_type::to_int_type(*gptr());
}

bool GzipBuffer::inflate_some() {
  z_stream& z = stream_;
  while (!ended_) {
    if (z.avail_in == 0 && !packed_ended_) {
      packed_.read(in_.data(), in_.size());
      if (packed_.bad()) throw Error(source_ + ": read error");
      z.next_in = reinterpret_cast<Bytef*>(in_.data());
      z.avail_in = static_cast<uInt>(packed_.gcount());
      packed_bytes_ += z.avail_in;
      packed_ended_ = z.avail_in == 0;
    }
    z.next_out = reinterpret_cast<Bytef*>(out_.data());
    z.avail_out = static_cast<uInt>(out_.size());
    const int status = inflate(&z, Z_NO_FLUSH);
    const std::size_t made = out_.size() - z.avail_out;
    if (status == Z_STREAM_END) {
      if (z.avail_in == 0 && !packed_ended_) {
        // Whether another member follows, as gzip writes concatenated files.
        packed_.read(in_.data(), in_.size());
        z.next_in = reinterpret_cast<Bytef*>(in_.data());
        z.avail_in = static_cast<uInt>(packed_.gcount());
        packed_bytes_ += z.avail_in;
        packed_ended_ = z.avail_in == 0;
      }
      if (z.avail_in == 0) {
        ended_ = true;
      } else if (inflateReset(&z) != Z_OK) {
        throw Error("zlib cannot restart");
      }
    } else if (status == Z_BUF_ERROR && z.avail_in == 0 && packed_ended_) {
      throw Error(source_ + ": the gzip data ends early (the file is cut short)");
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      throw Error(source_ + ": damaged gzip data (zlib: " +
                  (z.msg != nullptr ? std::string(z.msg) : "error " + std::to_string(status)) +
                  ")");
    }
    if (made > 0) {
      text_bytes_ += made;
      check_ratio();
      setg(out_.data(), out_.data(), out_.data() + made);
      return true;
    }
  }
  return false;
}

void GzipBuffer::check_ratio() const {
  const std::uint64_t used = packed_bytes_ - stream_.avail_in;
  if (text_bytes_ > kRatioFloor && text_bytes_ / kMaxRatio > used) {
    throw Error(source_ + ": the gzip data expands more than " + std::to_string(kMaxRatio) +
                " times (" + std::to_string(text_bytes_) + " bytes from the first " +
                std::to_string(used) +
                "): refused as a decompression bomb (no pattern file expands so much)");
  }
}

} // namespace lifebench::detail
