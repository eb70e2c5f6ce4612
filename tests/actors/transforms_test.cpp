#include <gtest/gtest.h>

#include <tuple>

#include "actor_test_util.hpp"
#include "actors/counter.hpp"

namespace cwf::actors {
namespace {

using testing::Harness;
using testing::param_error;
using Lines = std::vector<std::string>;

// generator (records {id: i, v: i * 10} for i < n) -> actor -> collectors
void source(Harness& h, int n) {
  h.add("src", "generator",
        {{"count", Value(n)}, {"value", Value("{id: i, v: i * 10, xs: [i, i + 1]}")}});
}

TEST(Filter, PassesTheMatchingTokens) {
  Harness h;
  source(h, 6);
  h.add("f", "filter", {{"where", Value("/v >= 20 and /id != 4")}});
  h.connect("src", "f");
  auto& out = h.collect("f");
  h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"id":2,"v":20,"xs":[2,3]})", R"({"id":3,"v":30,"xs":[3,4]})",
                               R"({"id":5,"v":50,"xs":[5,6]})"}));
}

TEST(Filter, ARuntimeErrorDropsTheTokenAndCounts) {
  Harness h;
  h.add("src", "generator", {{"count", Value(3)}, {"value", Value("if(i == 1, \"x\", i)")}});
  h.add("f", "filter", {{"where", Value("/ * 2 > 1")}});
  h.connect("src", "f");
  auto& out = h.collect("f");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{"2"}));
  EXPECT_EQ(Harness::errors(summary, "f"), 1u);
}

TEST(Filter, AReadingThatIsNotANumberIsAnErrorNotAMatch) {
  for (auto [where, passed, failed] :
       {std::tuple{"/celsius > 30", R"({"celsius":31})", 1u},
        // Strings order bytewise with strings: 'n/a' > '30'; the numbers are the errors here.
        std::tuple{"/celsius > '30'", R"({"celsius":"n/a"})", 2u}}) {
    SCOPED_TRACE(where);
    Harness h;
    h.add("src", "generator",
          {{"count", Value(4)}, {"value", Value("{celsius: [31, 'n/a', 25, null][i]}")}});
    h.add("f", "filter", {{"where", Value(where)}});
    h.connect("src", "f");
    auto& out = h.collect("f");
    RunSummary summary = h.run();
    // A missing reading (null) is not in the range and not an error.
    EXPECT_EQ(out.json(), Lines{passed});
    EXPECT_EQ(Harness::errors(summary, "f"), failed);
  }
}

TEST(Map, EmitsTheExpressionValue) {
  Harness h;
  source(h, 3);
  h.add("m", "map", {{"expression", Value("{key: /id, double: /v * 2.5}")}});
  h.connect("src", "m");
  auto& out = h.collect("m");
  h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"key":0,"double":0.0})", R"({"key":1,"double":25.0})",
                               R"({"key":2,"double":50.0})"}));
}

TEST(Split, OneEventPerElementAsSubWaves) {
  Harness h;
  source(h, 2);
  h.add("s", "split", {{"path", Value("/xs")}});
  h.connect("src", "s");
  auto& out = h.collect("s");
  h.run();
  EXPECT_EQ(out.json(), (Lines{"0", "1", "1", "2"}));
  // Two children of each input wave, the second marked last.
  ASSERT_EQ(out.seen.size(), 4u);
  EXPECT_EQ(out.seen[0].wave.substr(out.seen[0].wave.find('.')), ".1");
  EXPECT_EQ(out.seen[1].wave.substr(out.seen[1].wave.find('.')), ".2*");
}

TEST(Split, EachMakesTheEventOfAnElementFromTheWholeTheElementAndItsIndex) {
  Harness h;
  source(h, 2);
  h.add(
      "s", "split",
      {{"path", Value("/xs")},
       {"each",
        Value(
            "if(element == 2, element * 9223372036854775807, {of: /id, x: element, at: index})")}});
  h.connect("src", "s");
  auto& out = h.collect("s");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{R"({"of":0,"x":0,"at":0})", R"({"of":0,"x":1,"at":1})",
                               R"({"of":1,"x":1,"at":0})"}));
  EXPECT_EQ(Harness::errors(summary, "s"), 1u);  // element 2 of the second token
  // The wave of the second token ends at the element that was made.
  EXPECT_EQ(out.seen[2].wave.substr(out.seen[2].wave.find('.')), ".1*");
}

TEST(Split, TheWholeTokenAndNonArrays) {
  Harness h;
  h.add("src", "generator",
        {{"count", Value(4)}, {"value", Value("if(i == 1, {a: 1}, if(i == 2, [], [i, \"x\"]))")}});
  h.add("s", "split", {});
  h.connect("src", "s");
  auto& out = h.collect("s");
  RunSummary summary = h.run();
  EXPECT_EQ(out.json(), (Lines{"0", "\"x\"", "3", "\"x\""}));
  EXPECT_EQ(Harness::errors(summary, "s"), 1u);  // the record; an empty array is just empty
}

TEST(Merge, ForwardsEveryInputPort) {
  Harness h;
  h.add("a", "generator", {{"count", Value(2)}, {"value", Value("concat(\"a\", str(i))")}});
  h.add("b", "generator", {{"count", Value(3)}, {"value", Value("concat(\"b\", str(i))")}});
  h.add("c", "generator", {{"count", Value(1)}, {"value", Value("\"c\"")}});
  h.add("m", "merge", {{"inputs", Value(3)}});
  h.connect("a", "out", "m", "in0");
  h.connect("b", "out", "m", "in1");
  h.connect("c", "out", "m", "in2");
  auto& out = h.collect("m");
  h.run();
  std::vector<std::string> got = out.json();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (Lines{"\"a0\"", "\"a1\"", "\"b0\"", "\"b1\"", "\"b2\"", "\"c\""}));
  auto m = testing::make("merge", {{"inputs", Value(3)}});
  EXPECT_EQ(m->inputs().size(), 3u);
  EXPECT_EQ(m->input_index("in2"), 2);
  EXPECT_EQ(param_error("merge", {{"inputs", Value(0)}}),
            "inputs: inputs must be between 1 and 1024");
}

TEST(Counter, EmitsTheRunningCount) {
  Harness h;
  source(h, 4);
  h.add("n", "counter", {});
  h.connect("src", "n");
  auto& out = h.collect("n");
  h.run();
  EXPECT_EQ(out.json(), (Lines{"1", "2", "3", "4"}));
}

TEST(Tap, PassesEverythingAndCopiesTheMatches) {
  Harness h;
  source(h, 4);
  h.add("t", "tap", {{"where", Value("/id % 2 == 1")}});
  h.connect("src", "t");
  auto& out = h.collect("t", "out");
  auto& tap = h.collect("t", "tap");
  h.run();
  EXPECT_EQ(out.seen.size(), 4u);
  EXPECT_EQ(tap.json(), (Lines{R"({"id":1,"v":10,"xs":[1,2]})", R"({"id":3,"v":30,"xs":[3,4]})"}));

  Harness all;
  source(all, 2);
  all.add("t", "tap", {});
  all.connect("src", "t");
  auto& all_tap = all.collect("t", "tap");
  all.run();
  EXPECT_EQ(all_tap.seen.size(), 2u);
}

TEST(Transforms, ExpressionSyntaxErrorsAreParamErrors) {
  EXPECT_EQ(param_error("filter", {{"where", Value("/a >")}}).substr(0, 14), "where: column ");
  EXPECT_EQ(param_error("map", {{"expression", Value("(")}}).substr(0, 19), "expression: column ");
  EXPECT_EQ(param_error("split", {{"path", Value("/a[")}}).substr(0, 13), "path: column ");
  EXPECT_EQ(param_error("tap", {{"where", Value("1 +")}}).substr(0, 14), "where: column ");
  EXPECT_EQ(param_error("filter", {}), "where: missing required parameter 'where'");
}

}  // namespace
}  // namespace cwf::actors
