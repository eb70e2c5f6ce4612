// What a run-time problem looks like on stderr, and how an event's input line is found.
#include "runtime/execution/problem_report.hpp"

#include <gtest/gtest.h>

#include "runtime/execution/input_origin.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
namespace {

TEST(ProblemReport, NamesTheDeclarationTheEventAndItsInputLine) {
  const Schema* schema = Schema::intern({"sensor", "celsius"});
  Value slots[] = {Value("s1"), Value("n/a")};
  Event event{Value::record(schema, slots), 5, WaveTag(5, 7)};
  EXPECT_EQ(format_problem({"hot", "filter", "sensors.yaml:9", {}}, ProblemKind::failed,
                           "cannot compare", &event, std::string("data/sensors.csv:14")),
            "cwf: sensors.yaml:9: actor 'hot' (filter) failed on an event: cannot compare\n"
            "    event {\"sensor\":\"s1\",\"celsius\":\"n/a\"} from data/sensors.csv:14\n");
}

TEST(ProblemReport, CountsEventsAndNamesAnInnerActor) {
  EXPECT_EQ(format_problem({"out", "csv_sink", "a.yaml:3", {}}, ProblemKind::lost,
                           "out.csv: write error", nullptr, std::nullopt, 12),
            "cwf: a.yaml:3: actor 'out' (csv_sink) may have lost 12 events: out.csv: write "
            "error\n");
  EXPECT_EQ(format_problem({"stage", "workflow:b.yaml", "a.yaml:4", "b.yaml:2: actor 'm' (map)"},
                           ProblemKind::rejected, "bad", nullptr, std::nullopt),
            "cwf: a.yaml:4: actor 'stage' (workflow:b.yaml), in b.yaml:2: actor 'm' (map), "
            "rejected an event: bad\n");
  EXPECT_EQ(format_problem({"g", "", "", {}}, ProblemKind::dropped, "why", nullptr, std::nullopt),
            "cwf: actor 'g' dropped an event: why\n");
}

TEST(ProblemReport, AnExcerptIsCutOnACharacterBoundary) {
  EXPECT_EQ(event_excerpt(Value("ééééé"), 4), "\"é…");
  EXPECT_EQ(event_excerpt(Value(std::int64_t{42})), "42");
}

TEST(InputOrigin, FindsTheLineOfEveryTokenFromTheChangesAlone) {
  InputOrigin origin;
  origin.set_name("data.csv");
  // A header on line 1; tokens 1..3 from lines 2..4; line 5 malformed; tokens 4..5 from 6..7.
  std::uint64_t first = (std::uint64_t{2} << 40) + 1;  // the third source's first token
  origin.note(first, 2);
  origin.note(first + 1, 3);
  origin.note(first + 2, 4);
  origin.note(first + 3, 6);
  origin.note(first + 4, 7);
  EXPECT_EQ(origin.describe(first), "data.csv:2");
  EXPECT_EQ(origin.describe(first + 2), "data.csv:4");
  EXPECT_EQ(origin.describe(first + 3), "data.csv:6");
  EXPECT_EQ(origin.describe(first + 4), "data.csv:7");
  EXPECT_EQ(origin.describe(first - 1), std::nullopt);
}

}  // namespace
}  // namespace cwf
