// Whether this test binary runs under AddressSanitizer or ThreadSanitizer, which make code
// 5 to 30 times slower: exhaustive tests check a smaller sample there (the regular build checks
// all of it).
#pragma once

#include <cstddef>

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

// A loop over every position of a stream (every cut) checks every kSampleStride-th position
// under the sanitizers, starting at sample_start(round). Each round (one per kind of window,
// say) checks a third of its positions; rounds start at different offsets, so across rounds
// every residue is checked, though no one stream at every position.
inline constexpr std::size_t kSampleStride = kSanitizerBuild ? 3 : 1;
inline constexpr std::size_t sample_start(std::size_t round) {
  return round % kSampleStride;
}

}  // namespace cwf::testing
