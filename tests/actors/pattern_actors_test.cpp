// The window actors of the pattern examples: expression (precondition + emit over a window) and
// join (stream join of two inputs). Behind FIFO connections every window is one event; the
// windowed behaviour is covered end to end by tests/e2e/patterns_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::param_error;
using Lines = std::vector<std::string>;

void source(Harness& h, const std::string& name, int n) {
  h.add(name, "generator", {{"count", Value(n)}, {"value", Value("{id: i, v: i * 10}")}});
}

TEST(ExpressionActor, EmitsForTheWindowsThePreconditionAccepts) {
  Harness h;
  source(h, "src", 5);
  h.add("e", "expression",
        {{"when", Value("event/v >= 20")},
         {"emit", Value("{n: len(window), id: /id, last: event == window[-1]}")}});
  h.connect("src", "e");
  auto& out = h.collect("e");
  h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"n":1,"id":2,"last":true})", R"({"n":1,"id":3,"last":true})",
                               R"({"n":1,"id":4,"last":true})"}));
}

TEST(ExpressionActor, NullEmitsNothingAndFailuresCount) {
  Harness h;
  h.add("src", "generator", {{"count", Value(4)}, {"value", Value("if(i == 2, \"x\", i)")}});
  h.add("e", "expression", {{"emit", Value("if(/ == 1, null, / * 2)")}});
  h.connect("src", "e");
  auto& out = h.collect("e");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{"0", "6"}));
  EXPECT_EQ(Harness::errors(summary, "e"), 1u);
}

TEST(ExpressionActor, ParameterErrors) {
  EXPECT_NE(param_error("expression", {}).find("emit"), std::string::npos);
  EXPECT_EQ(param_error("expression", {{"emit", Value("len(window")}}).rfind("emit: ", 0), 0u);
  EXPECT_EQ(param_error("expression", {{"emit", Value("1")}, {"when", Value("left > 1")}})
                .rfind("when: ", 0),
            0u);
}

// Both sides fed by the same source: in match: time every token's window (one event, its
// timestamp) meets the other side's window of the same time, whatever order they arrive in.
TEST(Join, MatchTimeJoinsTheWindowsOfTheSameTime) {
  Harness h;
  source(h, "src", 4);
  h.add("j", "join",
        {{"match", Value("time")},
         {"on", Value("left/id == right/id")},
         {"emit", Value("{id: left/id, sum: left/v + right/v}")}});
  h.connect("src", "out", "j", "left");
  h.connect("src", "out", "j", "right");
  auto& out = h.collect("j");
  h.run();
  std::vector<std::string> got = out.json();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Lines{R"({"id":0,"sum":0})", R"({"id":1,"sum":20})", R"({"id":2,"sum":40})",
                        R"({"id":3,"sum":60})"}));
}

// Emits, in one firing, r1 at 1, l1 at 2, l2 at 3, r2 at 4, l3 at 5 on its ports l and r. The
// join fires on them after the firing, earliest window time first.
class TwoStreams final : public Actor {
 public:
  TwoStreams() {
    add_output("l");
    add_output("r");
  }
  void fire(FiringContext& c) override {
    const std::pair<int, const char*> events[] = {
        {1, "r1"}, {0, "l1"}, {0, "l2"}, {1, "r2"}, {0, "l3"}};
    Timestamp t = 1;
    for (const auto& [port, name] : events) {
      c.set_output_time(t++);
      c.emit(port, Value(name));
    }
  }
  bool postfire(FiringContext&) override { return false; }
};

TEST(Join, MatchLatestJoinsWithTheMostRecentWindowOfTheOtherSide) {
  Harness h;
  h.add("src", std::make_unique<TwoStreams>());
  h.add("j", "join", {{"emit", Value("concat(left, '+', right)")}});
  h.connect("src", "l", "j", "left");
  h.connect("src", "r", "j", "right");
  auto& out = h.collect("j");
  h.run();
  // r1 meets no left window yet; l1 and l2 meet r1; r2 meets l2; l3 meets r2.
  EXPECT_EQ(out.json(), (Lines{R"("l1+r1")", R"("l2+r1")", R"("l2+r2")", R"("l3+r2")"}));
}

TEST(Join, NothingWhileTheOtherSideHadNoWindow) {
  Harness h;
  source(h, "src", 3);
  h.add("j", "join", {});
  h.connect("src", "out", "j", "left");
  auto& out = h.collect("j");
  h.run();
  EXPECT_TRUE(out.seen.empty());
}

TEST(Join, ParameterErrors) {
  EXPECT_EQ(param_error("join", {{"match", Value("sideways")}}),
            "match: expected latest or time, got 'sideways'");
  EXPECT_EQ(param_error("join", {{"on", Value("window > 1")}}).rfind("on: ", 0), 0u);
  auto j = testing::make("join", {});
  EXPECT_EQ(j->input_index("left"), 0);
  EXPECT_EQ(j->input_index("right"), 1);
}

}  // namespace
}  // namespace cwf::actors
