// Tests that need a program the build's dependencies install (`make deps`, the Makefile's
// PACKAGES) fail when it is missing, rather than skip: a checkout without it must not look
// green. Someone who runs without it on purpose names it in CWF_TEST_ALLOW_MISSING (a comma-
// or space-separated list, e.g. CWF_TEST_ALLOW_MISSING=nats-server), and those tests are skipped.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace cwf::testing {

inline constexpr const char* kAllowMissingVariable = "CWF_TEST_ALLOW_MISSING";

// Whether `allowed` (the variable's value; null when unset) names `dependency`.
inline bool missing_allowed(std::string_view dependency, const char* allowed) {
  if (allowed == nullptr) return false;
  std::string_view list(allowed);
  while (!list.empty()) {
    std::size_t end = list.find_first_of(", ");
    std::string_view name = list.substr(0, end);
    if (name == dependency) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

inline bool missing_allowed(std::string_view dependency) {
  return missing_allowed(dependency, std::getenv(kAllowMissingVariable));
}

// What a test says when `dependency` is missing and not allowed to be.
inline std::string missing_dependency_message(std::string_view dependency,
                                              std::string_view package) {
  return std::string(dependency) + " is not installed: this test needs it (apt-get install " +
         std::string(package) + ", or `make deps`); to run without it on purpose, set " +
         kAllowMissingVariable + "=" + std::string(dependency);
}

}  // namespace cwf::testing

// In a test body: when `available` is false, fails the test, or skips it if the user allowed
// `dependency` to be missing.
#define CWF_REQUIRE_DEPENDENCY(dependency, package, available)                   \
  do {                                                                           \
    if (!(available)) {                                                          \
      if (::cwf::testing::missing_allowed(dependency)) {                         \
        GTEST_SKIP() << (dependency) << " is not installed (allowed by "         \
                     << ::cwf::testing::kAllowMissingVariable << ")";            \
      }                                                                          \
      FAIL() << ::cwf::testing::missing_dependency_message(dependency, package); \
    }                                                                            \
  } while (false)
