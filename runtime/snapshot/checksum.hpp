// CRC-32 (the polynomial of zlib, gzip and PNG) over a byte range: the checksum of a checkpoint
// file's payload and of each snapshot section.
#pragma once

#include <cstdint>
#include <span>

namespace cwf {

std::uint32_t crc32_of(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace cwf
