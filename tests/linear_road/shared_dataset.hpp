// Where the tests find the shared Linear Road dataset (`../shared/linear_road` beside the
// checkout, with the Perl validator's answers), and what they do without it: fail, saying where
// they looked. A green suite must mean the dataset was checked. Whoever knowingly runs without it
// says so: CWF_TEST_ALLOW_MISSING, a comma-separated list of names, with `linear-road-data` turns
// those failures into skips (e.g. CWF_TEST_ALLOW_MISSING=linear-road-data make test).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "tests/required_dependency.hpp"

namespace cwf::lr::testing {

inline constexpr const char* kSharedDatasetName = "linear-road-data";

inline std::string shared_dataset_dir() {
  return std::filesystem::weakly_canonical(CWF_SOURCE_DIR "/../shared/linear_road").string();
}

// The files of the shared dataset the tests read.
inline constexpr const char* kSharedDatasetFiles[] = {
    "input.dat.xz",
    "historical-tolls.dat.xz",
    "expected-perl-tollaccalerts.csv.xz",
    "expected-perl-accountbalance.csv.xz",
    "expected-perl-dailyexpenditure.csv.xz",
    "expected-ValidateMTBQ.out.xz",
    "expected-ValidateMTBQ-type2-unstable.csv",
};

// Empty when every file of kSharedDatasetFiles is there, else a message naming the first one
// missing and where it was looked for.
inline std::string missing_shared_files() {
  const std::string dir = shared_dataset_dir();
  for (const char* file : kSharedDatasetFiles) {
    const std::string path = dir + "/" + file;
    if (!std::filesystem::exists(path))
      return "the shared Linear Road dataset is missing " + path + " (looked in " + dir +
             ", i.e. ../shared/linear_road beside the checkout)";
  }
  return "";
}

}  // namespace cwf::lr::testing

// In a test body: fails the test (or skips it, when CWF_TEST_ALLOW_MISSING names
// linear-road-data) unless the shared dataset is there.
#define CWF_REQUIRE_SHARED_DATASET()                                                           \
  do {                                                                                         \
    const std::string cwf_missing_ = ::cwf::lr::testing::missing_shared_files();               \
    if (!cwf_missing_.empty()) {                                                               \
      if (::cwf::testing::missing_allowed(::cwf::lr::testing::kSharedDatasetName))             \
        GTEST_SKIP() << cwf_missing_ << "; skipped: " << ::cwf::testing::kAllowMissingVariable \
                     << " names " << ::cwf::lr::testing::kSharedDatasetName;                   \
      FAIL() << cwf_missing_ << "; to run without it on purpose, set "                         \
             << ::cwf::testing::kAllowMissingVariable << "="                                   \
             << ::cwf::lr::testing::kSharedDatasetName;                                        \
    }                                                                                          \
  } while (false)
