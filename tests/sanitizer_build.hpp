// Whether this test binary runs under AddressSanitizer or ThreadSanitizer, which make code
// 5 to 30 times slower: exhaustive tests check a smaller sample there (the regular build checks
// all of it).
#pragma once

#include <cstddef>
#include <vector>

namespace cwf::testing {

// GCC says so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang (the sanitized suite's
// compiler) only through __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif
#else
inline constexpr bool kSanitizerBuild = false;
#endif

// The positions 0..last of a stream (its cuts) that a loop over every position checks: all of
// them in the regular build; under the sanitizers every kSampleStride-th. Each round (one per
// kind of window, say) starts at another offset, so across rounds every residue is checked,
// though no one stream at every position.
inline constexpr std::size_t kSampleStride = kSanitizerBuild ? 3 : 1;
inline std::vector<std::size_t> sampled_positions(std::size_t round, std::size_t last) {
  std::vector<std::size_t> positions;
  for (std::size_t p = round % kSampleStride; p <= last; p += kSampleStride)
    positions.push_back(p);
  return positions;
}

}  // namespace cwf::testing
