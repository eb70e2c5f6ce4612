#include "runtime/snapshot/checksum.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <limits>

namespace cwf {

std::uint32_t crc32_of(std::span<const std::uint8_t> bytes) noexcept {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  // zlib takes the length as an unsigned int: feed larger ranges in pieces.
  constexpr std::size_t kChunk = std::numeric_limits<uInt>::max();
  for (std::size_t done = 0; done < bytes.size();) {
    const std::size_t n = std::min(kChunk, bytes.size() - done);
    crc = ::crc32(crc, bytes.data() + done, static_cast<uInt>(n));
    done += n;
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace cwf
