// A pseudo-random source whose every output is fixed by the seed on every platform and standard
// library: xoshiro256** seeded through splitmix64, with its own integer-only distributions. The
// standard distributions (std::uniform_int_distribution and friends) are implementation-defined
// and floating point may be contracted differently by different compilers, so generated data
// would not be byte-identical across machines with them.
#pragma once

#include <cstdint>

namespace cwf::lr {

class DeterministicRandom {
 public:
  explicit DeterministicRandom(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (std::uint64_t& word : state_)
      word = splitmix64(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n), n > 0, without modulo bias (values below 2^64 mod n are rejected).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
      std::uint64_t r = next();
      if (r >= threshold) return r % n;
    }
  }

  // Uniform in [low, high], low <= high.
  std::int64_t between(std::int64_t low, std::int64_t high) {
    return low + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(high - low) + 1));
  }

  // True with probability parts / 1,000,000.
  bool chance_per_million(std::uint32_t parts) { return below(1'000'000) < parts; }

  // An independent stream for another purpose, so that drawing more numbers in one part of the
  // generator does not shift the numbers of another.
  static DeterministicRandom stream(std::uint64_t seed, std::uint64_t purpose) {
    std::uint64_t x = seed ^ (purpose * 0xd1b54a32d192ed03ULL);
    return DeterministicRandom(splitmix64(x));
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4];
};

}  // namespace cwf::lr
