// The window actor of the pattern examples: expression (precondition + emit over a window).
// Behind FIFO connections every window is one event; the windowed behaviour is covered end to
// end by tests/e2e/patterns_test.cpp. The join has its own tests (join_test.cpp).
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

}  // namespace
}  // namespace cwf::actors
