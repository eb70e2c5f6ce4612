// A 64-bit finaliser (splitmix64's): every input bit changes about half the output bits, so that
// hashes that are small or close together (an integer key hashes to itself) spread evenly when
// taken modulo a count, or combined.
#pragma once

#include <cstdint>

namespace cwf {

constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace cwf
