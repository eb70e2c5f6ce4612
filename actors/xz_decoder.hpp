// Decompresses an .xz stream read from a file descriptor, in pieces the caller asks for. The
// line reader uses it so that the large Linear Road files can stay compressed on disk.
#pragma once

#include <lzma.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cwf::actors {

// True when the first bytes are the .xz stream header magic (FD 37 7A 58 5A 00).
bool has_xz_magic(const void* data, std::size_t size);

class XzDecoder {
 public:
  XzDecoder();
  ~XzDecoder();
  XzDecoder(const XzDecoder&) = delete;
  XzDecoder& operator=(const XzDecoder&) = delete;

  // Reads compressed bytes from fd and writes up to `capacity` decompressed bytes to `out`.
  // Returns the number written (> 0), 0 at the end of the data, -1 on an error (see error()).
  // `readable`, when given, is asked before each read of fd: false (the reader was told to stop
  // while waiting for a pipe) returns -2 and nothing is read.
  long read(int fd, char* out, std::size_t capacity, const std::function<bool()>& readable = {});
  const std::string& error() const { return error_; }

 private:
  static constexpr std::size_t kInputSize = 1 << 16;

  lzma_stream stream_ = LZMA_STREAM_INIT;
  std::vector<std::uint8_t> input_;
  bool input_eof_ = false;
  bool finished_ = false;
  std::string error_;
};

}  // namespace cwf::actors
