// What `cwf lr validate` must find for a correct product's answers on the shared dataset, to the
// answer: the Perl validator's tables matched completely, and exactly the differences
// docs/linear-road.md explains ("Agreement with the Perl validator on the shared dataset"). The
// reference and the workflow answer the same, so both are held to these figures; any change,
// one more or one fewer explained difference, fails.
#pragma once

#include <gtest/gtest.h>

#include "linear_road/validation_report.hpp"

namespace cwf::lr::testing {

inline void expect_shared_dataset_agreement(const ValidationReport& report) {
  EXPECT_EQ(report.malformed.count(), 0u);
  for (std::size_t type = 0; type < kAnswerTypes; ++type) {
    SCOPED_TRACE(answer_type_name(type));
    const TypeReport& t = report.types[type];
    EXPECT_EQ(t.matched, t.expected);  // all of Perl's answers, with its values
    EXPECT_EQ(t.missing, 0u);
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_EQ(t.extra_unexplained, 0u);
    EXPECT_EQ(t.late, 0u);
  }
  const auto& [tolls, alerts, balances, expenditures] = report.types;
  EXPECT_EQ(tolls.expected, 1'837'587u);
  // 525 notifications for segments a re-entered car passes again on its second trip: Perl keys
  // its rows by (dir, seg, carid) and has one, from the first trip.
  EXPECT_EQ(tolls.extra_explained, 525u);
  EXPECT_EQ(tolls.actual, 1'837'587u + 525u);
  // 17 alerts on those re-entries (ValidateMTBQ, which resets re-entering cars, has 15 of them;
  // the other 2 are in minute 60, which its alert window, a minute shorter, leaves out).
  EXPECT_EQ(alerts.expected, 22'061u);
  EXPECT_EQ(alerts.extra_explained, 17u);
  EXPECT_EQ(alerts.actual, 22'061u + 17u);
  // 23 balances equal one of Perl's answers only after adjusting it: 21 queries come with the
  // car's exit-lane report in the segment after a tolled one (the move charges that toll; Perl
  // has no notification row for an exit-lane report and answers the balance before it), 2 are
  // re-entered cars charged for tolls of their second trip, which Perl has no rows for. On this
  // data no balance needs Perl's exit-segment tolls (30 of them) taken out.
  EXPECT_EQ(balances.expected, 25'213u);
  EXPECT_EQ(balances.extra_explained, 0u);
  EXPECT_EQ(balances.matched_adjusted, 23u);
  EXPECT_EQ(balances.matched_plus_exit_lane_move_toll, 21u);
  EXPECT_EQ(balances.matched_plus_reentry_tolls, 2u);
  EXPECT_EQ(balances.matched_less_exit_tolls, 0u);
  EXPECT_EQ(expenditures.expected, 5'063u);
  EXPECT_EQ(expenditures.extra_explained, 0u);
  EXPECT_TRUE(report.passed());

  // The second opinion (informational, not the verdict): ValidateMTBQ rounds LAVs where Perl
  // truncates and averages differently, ends alert windows a minute earlier and races on
  // balances (docs/linear-road.md, "Validation").
  ASSERT_TRUE(report.mtbq.has_value());
  const auto& [mtbq_tolls, mtbq_alerts, mtbq_balances, mtbq_expenditures] = *report.mtbq;
  EXPECT_EQ(mtbq_tolls.matched, 1'373'706u);
  EXPECT_EQ(mtbq_tolls.wrong, 464'406u);
  EXPECT_EQ(mtbq_tolls.missing, 0u);
  EXPECT_EQ(mtbq_alerts.matched, 19'702u);
  EXPECT_EQ(mtbq_alerts.missing, 0u);
  EXPECT_EQ(mtbq_alerts.extra_explained + mtbq_alerts.extra_unexplained, 2'376u);
  EXPECT_EQ(mtbq_balances.matched, 22'789u);
  EXPECT_EQ(mtbq_balances.wrong, 2'424u);
  EXPECT_EQ(mtbq_expenditures.matched, 5'063u);
}

}  // namespace cwf::lr::testing
