// Whether this test binary runs under AddressSanitizer or ThreadSanitizer, which make code
// 5 to 30 times slower: exhaustive tests check a smaller sample there (the regular build checks
// all of it).
#pragma once

namespace cwf::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

}  // namespace cwf::testing
