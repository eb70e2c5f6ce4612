// Compares a product's answers with expected answers. The expected directory is either
//  - the shared dataset: the Perl validator's tables (expected-perl-*) are the reference, with
//    its known gaps explained from the input (re-entering cars, exit-segment tolls), plus
//    agreement with ValidateMTBQ for information; or
//  - a directory with `expected.out` in the product line format (our reference
//    implementation's answers): exact comparison.
// Rules and their reasons: docs/linear-road.md, section "Validation".
#pragma once

#include <string>

#include "linear_road/validation_report.hpp"

namespace cwf::lr {

struct ValidationOptions {
  std::string expected_dir;
  std::string actual_path;
  std::string input_path;  // empty: expected_dir/input.dat[.xz] when it exists
  std::size_t show = 10;   // differences kept per type and kind
};

constexpr const char* kExpectedProductFile = "expected.out";
constexpr const char* kMtbqFile = "expected-ValidateMTBQ.out";
constexpr const char* kMtbqUnstableFile = "expected-ValidateMTBQ-type2-unstable.csv";
constexpr const char* kInputFile = "input.dat";

// Throws DataFileError when a file cannot be read or the directory holds no expected answers.
ValidationReport validate_answers(const ValidationOptions& options);

}  // namespace cwf::lr
