// The tests over the whole 5-million-line shared dataset skip under the sanitizers
// (tests/sanitizer_build.hpp): the same code runs on generated data in the sanitized suites, and
// the full dataset would only add minutes, not coverage.
#pragma once

#include "tests/sanitizer_build.hpp"

namespace cwf::lr::testing {

inline constexpr bool kSanitizedBuild = cwf::testing::kSanitizerBuild;

inline constexpr const char* kSkippedUnderSanitizers =
    "the full shared dataset runs in the regular build; under the sanitizers the tests on "
    "generated data cover the same code";

}  // namespace cwf::lr::testing
