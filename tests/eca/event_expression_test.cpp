#include "actors/eca/event_expression.hpp"

#include <gtest/gtest.h>

namespace cwf::eca {
namespace {

std::string canonical(const std::string& text) {
  return parse_event_expression(text)->to_string();
}

std::string error_of(const std::string& text) {
  try {
    parse_event_expression(text);
  } catch (const EventSyntaxError& e) {
    return e.what();
  }
  return "";
}

TEST(EventExpression, ParsesPrimitivesOfServicesWorkflowsAndTime) {
  EXPECT_EQ(canonical("REQ(LogClaim)"), "REQ(LogClaim)");
  EXPECT_EQ(canonical(" RPL ( CntrlCoverage . OK ) "), "RPL(CntrlCoverage.OK)");
  EXPECT_EQ(canonical("EXC(Print.PaperJam)"), "EXC(Print.PaperJam)");
  EXPECT_EQ(canonical("RPL(SW1.Done)"), "RPL(SW1.Done)");
  EXPECT_EQ(canonical("TIME(tick)"), "TIME(tick)");
}

TEST(EventExpression, ParsesTheRuleR1EventWithNesting) {
  auto e = parse_event_expression("CON(RPL(CntrlCoverage.OK),CON(RPL(SW1.Done),   RPL(SW2.Done)))");
  EXPECT_EQ(e->to_string(), "CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))");
  ASSERT_EQ(e->args.size(), 2u);
  EXPECT_EQ(e->op, EventOp::con);
  EXPECT_EQ(e->args[1]->op, EventOp::con);
}

TEST(EventExpression, ParsesEveryOperator) {
  EXPECT_EQ(canonical("SEQ(REQ(a), REQ(b))"), "SEQ(REQ(a), REQ(b))");
  EXPECT_EQ(canonical("DEX(RPL(a.x), RPL(a.y))"), "DEX(RPL(a.x), RPL(a.y))");
  EXPECT_EQ(canonical("CCR(REQ(a), REQ(b))"), "CCR(REQ(a), REQ(b))");
  EXPECT_EQ(canonical("REP(RPL(a.Done), REQ(a), 30s)"), "REP(RPL(a.Done), REQ(a), 30 s)");
  EXPECT_EQ(canonical("REP(RPL(a.Done), REQ(a), TIME(close))"),
            "REP(RPL(a.Done), REQ(a), TIME(close))");
  EXPECT_EQ(canonical("IN(REQ(a), TIME(open), TIME(close))"),
            "IN(REQ(a), TIME(open), TIME(close))");
}

TEST(EventExpression, ReportsMistakesWithTheirColumn) {
  EXPECT_EQ(error_of("CON(REQ(a) REQ(b))"), "column 12: expected ',' but found 'R'");
  EXPECT_EQ(error_of("AND(REQ(a), REQ(b))"),
            "column 1: unknown event operator 'AND' (expected REQ, RPL, EXC, TIME, SEQ, CON, DEX, "
            "CCR, REP or IN)");
  EXPECT_EQ(error_of("RPL(LogClaim)"), "column 1: RPL needs an outcome: RPL(LogClaim.Done)");
  EXPECT_EQ(error_of("REQ(LogClaim.Done)"),
            "column 1: REQ names a service without an outcome: REQ(LogClaim)");
  EXPECT_EQ(error_of("SEQ(REQ(a), REQ(b)"), "column 19: expected ')' but found the end");
  EXPECT_EQ(error_of("REQ(a) x"), "column 8: unexpected 'x' after the event");
  EXPECT_EQ(error_of("REP(REQ(a), REQ(b), 5 parsecs)"),
            "column 21: expected a duration (e.g. 30 s): unknown unit 'parsecs' (use ns, us, ms, "
            "s, min or h)");
  EXPECT_EQ(error_of(""),
            "column 1: expected an event (REQ, RPL, EXC, TIME, SEQ, CON, DEX, CCR, "
            "REP or IN) but found the end");
}

}  // namespace
}  // namespace cwf::eca
