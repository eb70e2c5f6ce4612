// A test whose dependency is missing fails, and is skipped only when CWF_TEST_ALLOW_MISSING
// names that dependency (tests/required_dependency.hpp).
#include "tests/required_dependency.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace cwf::testing {
namespace {

TEST(RequiredDependency, OnlyANameInTheListAllowsItToBeMissing) {
  EXPECT_FALSE(missing_allowed("nats-server", nullptr));
  EXPECT_FALSE(missing_allowed("nats-server", ""));
  EXPECT_TRUE(missing_allowed("nats-server", "nats-server"));
  EXPECT_TRUE(missing_allowed("nats-server", "xz,nats-server"));
  EXPECT_TRUE(missing_allowed("nats-server", "nats-server xz"));
  EXPECT_TRUE(missing_allowed("nats-server", "xz, nats-server"));
  EXPECT_FALSE(missing_allowed("nats-server", "nats"));
  EXPECT_FALSE(missing_allowed("nats-server", "nats-server2"));
  EXPECT_FALSE(missing_allowed("nats-server", "xz"));
}

// Sets CWF_TEST_ALLOW_MISSING for the scope, and restores it.
class AllowMissing {
 public:
  explicit AllowMissing(const char* value) {
    if (const char* old = std::getenv(kAllowMissingVariable)) old_ = old;
    if (value)
      setenv(kAllowMissingVariable, value, 1);
    else
      unsetenv(kAllowMissingVariable);
  }
  ~AllowMissing() {
    if (old_)
      setenv(kAllowMissingVariable, old_->c_str(), 1);
    else
      unsetenv(kAllowMissingVariable);
  }

 private:
  std::optional<std::string> old_;
};

// A test body that needs a program nobody has.
void needs_a_missing_program(bool* went_on) {
  CWF_REQUIRE_DEPENDENCY("frobnicator", "frob-utils", false);
  *went_on = true;
}

void needs_a_present_program(bool* went_on) {
  CWF_REQUIRE_DEPENDENCY("frobnicator", "frob-utils", true);
  *went_on = true;
}

// What the body reported, without reporting it for this test.
std::vector<::testing::TestPartResult> outcome_of(void (*body)(bool*), bool* went_on) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    body(went_on);
  }
  std::vector<::testing::TestPartResult> out;
  for (int i = 0; i < results.size(); ++i)
    out.push_back(results.GetTestPartResult(i));
  return out;
}

TEST(RequiredDependency, AMissingDependencyFailsTheTestAndSaysHowToInstallOrAllowIt) {
  AllowMissing unset(nullptr);
  bool went_on = false;
  auto results = outcome_of(needs_a_missing_program, &went_on);
  EXPECT_FALSE(went_on);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].fatally_failed());
  EXPECT_STREQ(results[0].message(),
               "Failed\nfrobnicator is not installed: this test needs it (apt-get install "
               "frob-utils, or `make deps`); to run without it on purpose, set "
               "CWF_TEST_ALLOW_MISSING=frobnicator");
}

TEST(RequiredDependency, AnotherNameInTheListStillFails) {
  AllowMissing other("nats-server");
  bool went_on = false;
  auto results = outcome_of(needs_a_missing_program, &went_on);
  EXPECT_FALSE(went_on);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].fatally_failed());
}

TEST(RequiredDependency, AMissingDependencyTheUserAllowedSkipsTheTest) {
  AllowMissing allowed("frobnicator");
  bool went_on = false;
  auto results = outcome_of(needs_a_missing_program, &went_on);
  EXPECT_FALSE(went_on);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].skipped());
  EXPECT_STREQ(results[0].message(),
               "frobnicator is not installed (allowed by CWF_TEST_ALLOW_MISSING)");
}

TEST(RequiredDependency, APresentDependencyLetsTheTestRun) {
  AllowMissing unset(nullptr);
  bool went_on = false;
  auto results = outcome_of(needs_a_present_program, &went_on);
  EXPECT_TRUE(went_on);
  EXPECT_TRUE(results.empty());
}

}  // namespace
}  // namespace cwf::testing
