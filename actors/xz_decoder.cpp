#include "actors/xz_decoder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cwf::actors {

namespace {

const char* describe(lzma_ret code) {
  switch (code) {
    case LZMA_MEM_ERROR:
      return "xz: out of memory";
    case LZMA_FORMAT_ERROR:
      return "xz: not in the .xz format";
    case LZMA_OPTIONS_ERROR:
      return "xz: unsupported compression options";
    case LZMA_DATA_ERROR:
      return "xz: compressed data is corrupt";
    case LZMA_BUF_ERROR:
      return "xz: compressed data is truncated";
    default:
      return "xz: decompression failed";
  }
}

}  // namespace

bool has_xz_magic(const void* data, std::size_t size) {
  static constexpr unsigned char kMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  return size >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

XzDecoder::XzDecoder() : input_(kInputSize) {
  // LZMA_CONCATENATED: files made by `cat a.xz b.xz` (or pxz) hold several streams.
  lzma_ret code = lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED);
  if (code != LZMA_OK) {
    error_ = describe(code);
    finished_ = true;
  }
}

XzDecoder::~XzDecoder() {
  lzma_end(&stream_);
}

long XzDecoder::read(int fd, char* out, std::size_t capacity,
                     const std::function<bool()>& readable) {
  if (!error_.empty()) return -1;
  if (finished_ || capacity == 0) return 0;
  stream_.next_out = reinterpret_cast<std::uint8_t*>(out);
  stream_.avail_out = capacity;
  // Loop until some output exists: a block header alone produces none.
  while (stream_.avail_out == capacity) {
    if (stream_.avail_in == 0 && !input_eof_) {
      if (readable && !readable()) return -2;
      ssize_t n;
      do {
        n = ::read(fd, input_.data(), input_.size());
      } while (n < 0 && errno == EINTR);
      if (n < 0) {
        error_ = std::strerror(errno);
        return -1;
      }
      if (n == 0) input_eof_ = true;
      stream_.next_in = input_.data();
      stream_.avail_in = static_cast<std::size_t>(n);
    }
    lzma_ret code = lzma_code(&stream_, input_eof_ ? LZMA_FINISH : LZMA_RUN);
    if (code == LZMA_STREAM_END) {
      finished_ = true;
      break;
    }
    if (code != LZMA_OK) {
      error_ = describe(code);
      return -1;
    }
  }
  return static_cast<long>(capacity - stream_.avail_out);
}

}  // namespace cwf::actors
