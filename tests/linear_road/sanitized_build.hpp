// Whether this test binary runs under the address or thread sanitizer. The tests over the whole
// 5-million-line shared dataset skip there: the same code runs on generated data in the
// sanitized suites, and the full dataset would only add minutes, not coverage.
#pragma once

namespace cwf::lr::testing {

// GCC says so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang (the sanitized suite's
// compiler) only through __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

inline constexpr const char* kSkippedUnderSanitizers =
    "the full shared dataset runs in the regular build; under the sanitizers the tests on "
    "generated data cover the same code";

}  // namespace cwf::lr::testing
