// What `cwf lr validate` found: per answer type the counts of matched, missing, wrong, extra
// and late answers, the first differences of each kind with both sides shown, malformed lines,
// and (for the shared dataset) agreement with the second validator. Computing it is
// validation.hpp; printing it is print_validation_report.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "linear_road/malformed_lines.hpp"

namespace cwf::lr {

// One answer that does not agree, as lines of both sides ("-" for an absent side).
struct Difference {
  std::string expected;
  std::string actual;
  std::string note;  // why it counts as it does, when that is not obvious
};

enum class DifferenceKind { missing, wrong, extra_explained, extra_unexplained, late };
constexpr std::size_t kDifferenceKinds = 5;
const char* difference_kind_name(DifferenceKind kind);

struct TypeReport {
  std::uint64_t expected = 0;  // expected answers (distinct keys)
  std::uint64_t actual = 0;    // answers of this type in the actual file
  std::uint64_t matched = 0;
  std::uint64_t missing = 0;
  std::uint64_t wrong = 0;
  std::uint64_t extra_explained = 0;
  std::uint64_t extra_unexplained = 0;
  std::uint64_t late = 0;
  // Balances that equal a Perl answer only after adjusting it for what Perl gets wrong or cannot
  // represent (perl_balance_adjustments.hpp); counted in matched. matched_adjusted counts each
  // such balance once, the others by adjustment (one balance may need several).
  std::uint64_t matched_adjusted = 0;
  std::uint64_t matched_less_exit_tolls = 0;
  std::uint64_t matched_plus_reentry_tolls = 0;
  std::uint64_t matched_plus_exit_lane_move_toll = 0;
  std::array<std::vector<Difference>, kDifferenceKinds> examples;

  std::uint64_t count(DifferenceKind kind) const;
  bool passed() const { return missing == 0 && wrong == 0 && extra_unexplained == 0 && late == 0; }
};

constexpr std::size_t kAnswerTypes = 4;  // 0 toll, 1 accident alert, 2 balance, 3 expenditure
const char* answer_type_name(std::size_t type);

struct ValidationReport {
  std::string reference;  // what the expected answers are
  std::string expected_dir;
  std::string actual_path;
  std::string input_path;  // empty: no input used
  std::size_t show = 10;
  std::array<TypeReport, kAnswerTypes> types;
  MalformedLines malformed;
  // Agreement with ValidateMTBQ's expected-ValidateMTBQ.out, when the directory has it.
  std::optional<std::array<TypeReport, kAnswerTypes>> mtbq;
  std::vector<std::string> notes;

  bool passed() const;
};

void print_validation_report(const ValidationReport& report, std::ostream& out);

}  // namespace cwf::lr
