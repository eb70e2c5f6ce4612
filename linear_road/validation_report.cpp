#include "linear_road/validation_report.hpp"

#include <iomanip>
#include <ostream>

namespace cwf::lr {

const char* difference_kind_name(DifferenceKind kind) {
  switch (kind) {
    case DifferenceKind::missing:
      return "missing";
    case DifferenceKind::wrong:
      return "wrong";
    case DifferenceKind::extra_explained:
      return "extra (explained)";
    case DifferenceKind::extra_unexplained:
      return "extra (unexplained)";
    case DifferenceKind::late:
      return "late";
  }
  return "?";
}

const char* answer_type_name(std::size_t type) {
  static const char* names[kAnswerTypes] = {"toll notification", "accident alert",
                                            "account balance", "daily expenditure"};
  return type < kAnswerTypes ? names[type] : "?";
}

std::uint64_t TypeReport::count(DifferenceKind kind) const {
  switch (kind) {
    case DifferenceKind::missing:
      return missing;
    case DifferenceKind::wrong:
      return wrong;
    case DifferenceKind::extra_explained:
      return extra_explained;
    case DifferenceKind::extra_unexplained:
      return extra_unexplained;
    case DifferenceKind::late:
      return late;
  }
  return 0;
}

bool ValidationReport::passed() const {
  for (const TypeReport& t : types)
    if (!t.passed()) return false;
  return malformed.count() == 0;
}

namespace {

void print_table(const std::array<TypeReport, kAnswerTypes>& types, bool with_late,
                 std::ostream& out) {
  out << "  " << std::left << std::setw(22) << "type" << std::right << std::setw(10) << "expected"
      << std::setw(10) << "actual" << std::setw(10) << "matched" << std::setw(9) << "missing"
      << std::setw(9) << "wrong";
  // Only the verdict's table splits extras (the second opinion explains none) and checks time.
  if (with_late) {
    out << std::setw(11) << "extra:expl" << std::setw(13) << "extra:unexpl" << std::setw(8)
        << "late";
  } else {
    out << std::setw(9) << "extra";
  }
  out << '\n';
  for (std::size_t type = 0; type < kAnswerTypes; ++type) {
    const TypeReport& t = types[type];
    out << "  " << type << ' ' << std::left << std::setw(20) << answer_type_name(type) << std::right
        << std::setw(10) << t.expected << std::setw(10) << t.actual << std::setw(10) << t.matched
        << std::setw(9) << t.missing << std::setw(9) << t.wrong;
    if (with_late) {
      out << std::setw(11) << t.extra_explained << std::setw(13) << t.extra_unexplained
          << std::setw(8) << t.late;
    } else {
      out << std::setw(9) << t.extra_explained + t.extra_unexplained;
    }
    out << '\n';
  }
}

}  // namespace

void print_validation_report(const ValidationReport& report, std::ostream& out) {
  out << "expected: " << report.reference << " in " << report.expected_dir << '\n';
  out << "actual:   " << report.actual_path << '\n';
  if (!report.input_path.empty()) out << "input:    " << report.input_path << '\n';
  out << '\n';
  print_table(report.types, true, out);
  const TypeReport& balances = report.types[2];
  if (balances.matched_adjusted > 0)
    out << "  " << balances.matched_adjusted
        << " balances matched only after adjusting Perl's answer:\n";
  if (balances.matched_less_exit_tolls > 0)
    out << "    " << balances.matched_less_exit_tolls
        << " as Perl's answer less the exit-segment tolls it charges\n";
  if (balances.matched_plus_reentry_tolls > 0)
    out << "    " << balances.matched_plus_reentry_tolls
        << " as Perl's answer plus the tolls of re-entry trips it has no rows "
           "for\n";
  if (balances.matched_plus_exit_lane_move_toll > 0)
    out << "    " << balances.matched_plus_exit_lane_move_toll
        << " as Perl's answer plus the toll of the segment left, at the query,"
           " for the exit lane of the next\n";
  for (const std::string& note : report.notes)
    out << "  " << note << '\n';

  for (std::size_t type = 0; type < kAnswerTypes; ++type) {
    const TypeReport& t = report.types[type];
    for (std::size_t k = 0; k < kDifferenceKinds; ++k) {
      const auto kind = static_cast<DifferenceKind>(k);
      const auto& examples = t.examples[k];
      if (examples.empty()) continue;
      out << "\ntype " << type << " (" << answer_type_name(type) << "), "
          << difference_kind_name(kind) << ": " << t.count(kind)
          << (t.count(kind) > examples.size() ? ", the first " : ", all ") << examples.size()
          << '\n';
      for (const Difference& d : examples) {
        out << "  expected: " << d.expected << "\n  actual:   " << d.actual << '\n';
        if (!d.note.empty()) out << "            (" << d.note << ")\n";
      }
    }
  }

  if (report.malformed.count() > 0) {
    out << "\nmalformed lines: " << report.malformed.count() << '\n';
    for (const MalformedLine& m : report.malformed.first())
      out << "  " << m.file << ':' << m.line << ": " << m.reason << ": " << m.text << '\n';
  }

  if (report.mtbq) {
    out << "\nagreement with ValidateMTBQ (expected-ValidateMTBQ.out; informational, not part of"
           " the verdict):\n";
    print_table(*report.mtbq, false, out);
    out << "  (the validators differ in LAV rounding/averaging, the accident window's end, exit"
           " charging and balance races: docs/linear-road.md, Validation)\n";
  }

  out << '\n' << (report.passed() ? "PASS" : "FAIL");
  if (!report.passed())
    out << ": missing, wrong, unexplained extra or late answers, or malformed lines";
  out << '\n';
}

}  // namespace cwf::lr
