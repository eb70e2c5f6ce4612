// Composite detection per operator, chronicle consumption, restrictions and nesting.
#include <gtest/gtest.h>

#include <random>

#include "eca_test_util.hpp"

namespace cwf::eca {
namespace {

using testing::occ;
using testing::Recorder;
using Seen = std::vector<std::string>;

TEST(EventDetector, SeqNeedsTheComponentsInOrder) {
  Recorder r({"SEQ(REQ(a), REQ(b))"});
  r.feed(occ("REQ(b)", "i1", 1));  // a terminator without initiator is not kept
  r.feed(occ("REQ(a)", "i1", 2));
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("REQ(b)", "i1", 3));
  EXPECT_EQ(r.seen, Seen{"SEQ(REQ(a), REQ(b))[REQ(a)@2 REQ(b)@3]"});
  EXPECT_EQ(occurrence_time(r.occurrences[0]), 3'000'000'000);
  EXPECT_EQ(field(r.occurrences[0], kInstance), Value("i1"));
}

TEST(EventDetector, SeqRequiresAStrictlyEarlierInitiator) {
  Recorder r({"SEQ(REQ(a), REQ(b))"});
  r.feed(occ("REQ(a)", "i1", 5));
  r.feed(occ("REQ(b)", "i1", 5));
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("REQ(b)", "i1", 6));
  EXPECT_EQ(r.seen, Seen{"SEQ(REQ(a), REQ(b))[REQ(a)@5 REQ(b)@6]"});
}

TEST(EventDetector, SeqOrdersEveryComponentOfCompositeArguments) {
  Recorder r({"SEQ(REQ(a), CON(REQ(b), REQ(c)))", "SEQ(CON(REQ(b), REQ(c)), REQ(a))"});
  r.feed(occ("REQ(b)", "i1", 1));
  r.feed(occ("REQ(a)", "i1", 2));
  r.feed(occ("REQ(c)", "i1", 3));  // b < a < c: a is not before all of CON(b, c)
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("REQ(b)", "i1", 4));
  r.feed(occ("REQ(c)", "i1", 5));
  r.feed(occ("REQ(a)", "i1", 6));
  EXPECT_EQ(
      r.seen,
      (Seen{
          "SEQ(REQ(a), CON(REQ(b), REQ(c)))[REQ(a)@2 CON(REQ(b), REQ(c))[REQ(b)@4 REQ(c)@5]@5]",
          "SEQ(CON(REQ(b), REQ(c)), REQ(a))[CON(REQ(b), REQ(c))[REQ(b)@1 REQ(c)@3]@3 REQ(a)@6]"}));
  EXPECT_EQ(start_time(r.occurrences[0]), 2'000'000'000);
}

TEST(EventDetector, ConTakesBothInAnyOrder) {
  Recorder r({"CON(REQ(a), REQ(b))"});
  r.feed(occ("REQ(b)", "i1", 1));
  r.feed(occ("REQ(a)", "i1", 2));
  r.feed(occ("REQ(a)", "i1", 3));
  r.feed(occ("REQ(b)", "i1", 4));
  EXPECT_EQ(r.seen, (Seen{"CON(REQ(a), REQ(b))[REQ(a)@2 REQ(b)@1]",
                          "CON(REQ(a), REQ(b))[REQ(a)@3 REQ(b)@4]"}));
}

TEST(EventDetector, DexFiresForEitherComponentAlone) {
  Recorder r({"DEX(RPL(p.Accept), RPL(p.Reject))"});
  r.feed(occ("RPL(p.Reject)", "i1", 1));
  r.feed(occ("RPL(p.Accept)", "i2", 2));
  EXPECT_EQ(r.seen, (Seen{"DEX(RPL(p.Accept), RPL(p.Reject))[RPL(p.Reject)@1]",
                          "DEX(RPL(p.Accept), RPL(p.Reject))[RPL(p.Accept)@2]"}));
}

TEST(EventDetector, DexIsExclusivePerInstance) {
  Recorder r({"DEX(REQ(a), REQ(b))"});
  r.feed(occ("REQ(a)", "i1", 1));
  r.feed(occ("REQ(b)", "i2", 2));
  r.feed(occ("REQ(b)", "i1", 3));  // the excluded alternative of a@1 in i1
  r.feed(occ("REQ(a)", "i2", 4));  // the excluded alternative of b@2 in i2
  EXPECT_EQ(r.seen, (Seen{"DEX(REQ(a), REQ(b))[REQ(a)@1]", "DEX(REQ(a), REQ(b))[REQ(b)@2]"}));
  EXPECT_EQ(r.detector().active_instances(), 0u);
  r.feed(occ("REQ(b)", "i1", 5));  // a new choice
  EXPECT_EQ(r.seen.back(), "DEX(REQ(a), REQ(b))[REQ(b)@5]");
}

TEST(EventDetector, TheSameTypeTwiceNeedsTwoDistinctOccurrences) {
  Recorder r(
      {"CON(REQ(a), REQ(a))", "CCR(REQ(a), REQ(a))", "DEX(REQ(a), REQ(a))", "SEQ(REQ(a), REQ(a))"});
  r.feed(occ("REQ(a)", "i1", 1));  // one occurrence: only DEX, once
  EXPECT_EQ(r.seen, Seen{"DEX(REQ(a), REQ(a))[REQ(a)@1]"});
  r.seen.clear();
  r.feed(occ("REQ(a)", "i1", 1));
  EXPECT_EQ(r.seen,
            (Seen{"CON(REQ(a), REQ(a))[REQ(a)@1 REQ(a)@1]",
                  "CCR(REQ(a), REQ(a))[REQ(a)@1 REQ(a)@1]", "DEX(REQ(a), REQ(a))[REQ(a)@1]"}));
  r.seen.clear();
  // SEQ: a@1 and a@1 are not in order; a@2 completes with the oldest earlier one and is consumed.
  r.feed(occ("REQ(a)", "i1", 2));
  r.feed(occ("REQ(a)", "i1", 3));
  EXPECT_EQ(r.seen, (Seen{"DEX(REQ(a), REQ(a))[REQ(a)@2]", "SEQ(REQ(a), REQ(a))[REQ(a)@1 REQ(a)@2]",
                          "CON(REQ(a), REQ(a))[REQ(a)@2 REQ(a)@3]", "DEX(REQ(a), REQ(a))[REQ(a)@3]",
                          "SEQ(REQ(a), REQ(a))[REQ(a)@1 REQ(a)@3]"}));
}

TEST(EventDetector, AnOccurrenceIsNotPairedWithACompositeContainingIt) {
  Recorder r({"CON(REQ(a), SEQ(REQ(a), REQ(b)))"});
  r.feed(occ("REQ(a)", "i1", 1));
  r.feed(occ("REQ(b)", "i1", 2));  // SEQ(a@1, b@2) must not pair with a@1 itself
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("REQ(a)", "i1", 3));
  EXPECT_EQ(r.seen, Seen{"CON(REQ(a), SEQ(REQ(a), REQ(b)))[REQ(a)@3 "
                         "SEQ(REQ(a), REQ(b))[REQ(a)@1 REQ(b)@2]@2]"});
}

TEST(EventDetector, CcrPairsOnlyOccurrencesAtTheSameTime) {
  Recorder r({"CCR(REQ(a), REQ(b))"});
  r.feed(occ("REQ(a)", "i1", 1));
  r.feed(occ("REQ(b)", "i1", 2));  // a@1 can no longer meet a partner
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("REQ(a)", "i1", 2));
  EXPECT_EQ(r.seen, Seen{"CCR(REQ(a), REQ(b))[REQ(a)@2 REQ(b)@2]"});
  EXPECT_EQ(r.detector().held(Value("i1"), r.root(0)), 0u);
}

TEST(EventDetector, RepFiresWhenTheComponentIsAbsentForTheInterval) {
  Recorder r({"REP(RPL(x.Done), REQ(x), 30 s)"});
  r.feed(occ("REQ(x)", "i1", 0));
  r.feed(occ("REQ(x)", "i2", 10));
  r.feed(occ("RPL(x.Done)", "i2", 20));  // i2 answered within its interval: no absence
  r.advance(29);
  EXPECT_TRUE(r.seen.empty());
  r.advance(30);
  EXPECT_EQ(r.seen, Seen{"REP(RPL(x.Done), REQ(x), 30 s)[REQ(x)@0]"});
  EXPECT_EQ(occurrence_time(r.occurrences[0]), 30'000'000'000);
  r.advance(100);
  EXPECT_EQ(r.seen.size(), 1u);
}

TEST(EventDetector, RepDeadlinesFireBeforeALaterOccurrenceIsDetected) {
  Recorder r({"REP(RPL(x.Done), REQ(x), 30 s)"});
  r.feed(occ("REQ(x)", "i1", 0));
  r.feed(occ("RPL(x.Done)", "i1", 30));  // too late: the interval [0, 30) has passed
  EXPECT_EQ(r.seen, Seen{"REP(RPL(x.Done), REQ(x), 30 s)[REQ(x)@0]"});
}

TEST(EventDetector, TimeEventsMoveTimeForEveryInstance) {
  Recorder r({"REP(RPL(x.Done), REQ(x), 1 min)"});
  r.feed(occ("REQ(x)", "i1", 0));
  r.feed(occ("TIME(tick)", Value(), 59));
  EXPECT_TRUE(r.seen.empty());
  r.feed(occ("TIME(tick)", Value(), 61));
  EXPECT_EQ(r.seen, Seen{"REP(RPL(x.Done), REQ(x), 1 min)[REQ(x)@0]"});
}

TEST(EventDetector, ATimeEventIsDetectedOnceAndComposesInEveryInstance) {
  Recorder r({"SEQ(REQ(x), TIME(close))", "TIME(close)"});
  r.feed(occ("REQ(x)", "i1", 0));
  r.feed(occ("REQ(x)", "i2", 1));
  r.feed(occ("TIME(close)", Value(), 2));
  std::sort(r.seen.begin(), r.seen.end());
  EXPECT_EQ(r.seen, (Seen{"SEQ(REQ(x), TIME(close))[REQ(x)@0 TIME(close)@2]",
                          "SEQ(REQ(x), TIME(close))[REQ(x)@1 TIME(close)@2]", "TIME(close)"}));
}

TEST(EventDetector, AnAbsenceStartedByATimeEventFiresPerActiveInstanceWithoutTheEvent) {
  Recorder r({"REP(RPL(a.Done), TIME(s), 10 s)", "REQ(x)"});
  r.feed(occ("TIME(s)", Value(), 5));
  r.feed(occ("RPL(a.Done)", "i1", 6));  // i1: the event occurred, no absence
  r.feed(occ("REQ(x)", "i2", 7));       // i2: active, the event did not occur
  r.feed(occ("REQ(x)", "i3", 20));      // i3: active only after the deadline at 15 s
  r.feed(occ("TIME(s)", Value(), 30));
  r.feed(occ("REQ(x)", "i3", 31));  // a later instance is checked by a later interval
  r.advance(40);
  std::vector<std::string> absences;
  for (const Value& o : r.occurrences)
    if (occurrence_type(o).starts_with("REP"))
      absences.push_back(field(o, kInstance).to_text() + "@" +
                         std::to_string(occurrence_time(o) / 1'000'000'000));
  EXPECT_EQ(absences, (std::vector<std::string>{"i2@15", "i3@40"}));
  EXPECT_EQ(r.detector().active_instances(), 0u);
}

TEST(EventDetector, PeriodicTimeEventsKeepTheStateBounded) {
  Recorder r({"SEQ(TIME(t), REQ(a))", "CON(REQ(b), REQ(c))"});
  r.feed(occ("REQ(b)", "i1", 0));  // i1 holds state, so the ticks compose in it
  for (int tick = 1; tick <= 1000; ++tick)
    r.feed(occ("TIME(t)", Value(), tick));
  EXPECT_EQ(r.detector().active_instances(), 1u);  // nothing kept for "no instance"
  EXPECT_EQ(r.detector().held(Value("i1"), r.root(0)), 1u);
  r.feed(occ("REQ(a)", "i1", 1001));
  EXPECT_EQ(r.seen, Seen{"SEQ(TIME(t), REQ(a))[TIME(t)@1000 REQ(a)@1001]"});
  EXPECT_EQ(r.detector().held(Value("i1"), r.root(0)), 0u);
}

TEST(EventDetector, AnInstancesEndClosesTheSharedIntervalForIt) {
  Recorder r({"REP(RPL(a.Done), TIME(s), RPL(b.Done))"});
  r.feed(occ("TIME(s)", Value(), 1));
  r.feed(occ("RPL(b.Done)", "i1", 2));  // i1: no a before its end
  r.feed(occ("RPL(a.Done)", "i2", 3));
  r.feed(occ("RPL(b.Done)", "i2", 4));  // i2: a occurred
  r.feed(occ("RPL(b.Done)", "i1", 5));  // already decided for i1
  ASSERT_EQ(r.seen.size(), 1u);
  EXPECT_EQ(r.seen[0], "REP(RPL(a.Done), TIME(s), RPL(b.Done))[TIME(s)@1 RPL(b.Done)@2]");
  EXPECT_EQ(field(r.occurrences[0], kInstance), Value("i1"));
}

TEST(EventDetector, RepBetweenTwoEvents) {
  Recorder r({"REP(RPL(x.Done), REQ(x), TIME(close))"});
  r.feed(occ("REQ(x)", "i1", 0));
  r.feed(occ("RPL(x.Done)", "i1", 1));
  r.feed(occ("TIME(close)", "i1", 2));  // x answered: nothing
  r.feed(occ("REQ(x)", "i1", 3));
  r.feed(occ("TIME(close)", "i1", 4));
  EXPECT_EQ(r.seen, Seen{"REP(RPL(x.Done), REQ(x), TIME(close))[REQ(x)@3 TIME(close)@4]"});
  r.seen.clear();
  r.feed(occ("REQ(x)", "i1", 5));
  r.feed(occ("REQ(x)", "i1", 6));
  r.feed(occ("TIME(close)", "i1", 7));  // the end closes every open interval
  EXPECT_EQ(r.seen, (Seen{"REP(RPL(x.Done), REQ(x), TIME(close))[REQ(x)@5 TIME(close)@7]",
                          "REP(RPL(x.Done), REQ(x), TIME(close))[REQ(x)@6 TIME(close)@7]"}));
  EXPECT_EQ(r.detector().active_instances(), 0u);
}

TEST(EventDetector, ChronicleUsesAndConsumesTheOldestCandidate) {
  Recorder r({"SEQ(REQ(a), REQ(b))", "CON(REQ(c), REQ(d))"});
  r.feed(occ("REQ(a)", "i1", 1));
  r.feed(occ("REQ(a)", "i1", 2));
  r.feed(occ("REQ(a)", "i1", 3));
  r.feed(occ("REQ(b)", "i1", 4));
  r.feed(occ("REQ(b)", "i1", 5));
  r.feed(occ("REQ(c)", "i1", 6));
  r.feed(occ("REQ(c)", "i1", 7));
  r.feed(occ("REQ(d)", "i1", 8));
  EXPECT_EQ(r.seen, (Seen{"SEQ(REQ(a), REQ(b))[REQ(a)@1 REQ(b)@4]",
                          "SEQ(REQ(a), REQ(b))[REQ(a)@2 REQ(b)@5]",
                          "CON(REQ(c), REQ(d))[REQ(c)@6 REQ(d)@8]"}));
  EXPECT_EQ(r.detector().held(Value("i1"), r.root(0)), 1u);  // a@3 is still unconsumed
  EXPECT_EQ(r.detector().held(Value("i1"), r.root(1)), 1u);  // c@7
}

TEST(EventDetector, SameInstanceKeepsInstancesApart) {
  Recorder per_instance({"CON(REQ(a), REQ(b))"});
  Recorder across({"CON(REQ(a), REQ(b))"}, /*same_instance=*/false);
  for (Recorder* r : {&per_instance, &across}) {
    r->feed(occ("REQ(a)", "i1", 1));
    r->feed(occ("REQ(b)", "i2", 2));
    r->feed(occ("REQ(b)", "i1", 3));
  }
  EXPECT_EQ(per_instance.seen, Seen{"CON(REQ(a), REQ(b))[REQ(a)@1 REQ(b)@3]"});
  EXPECT_EQ(across.seen, Seen{"CON(REQ(a), REQ(b))[REQ(a)@1 REQ(b)@2]"});
  EXPECT_EQ(per_instance.detector().held(Value("i2"), per_instance.root(0)), 1u);
}

TEST(EventDetector, IntervalRestrictionKeepsOnlyOccurrencesInside) {
  Recorder r({"IN(REQ(a), TIME(open), TIME(close))"});
  r.feed(occ("REQ(a)", "i1", 1));
  r.feed(occ("TIME(open)", Value(), 2));
  r.feed(occ("REQ(a)", "i1", 3));
  r.feed(occ("TIME(close)", Value(), 4));
  r.feed(occ("REQ(a)", "i1", 5));
  EXPECT_EQ(r.seen, Seen{"IN(REQ(a), TIME(open), TIME(close))[REQ(a)@3]"});
}

TEST(EventDetector, NestedCompositesAreDetectedBottomUp) {
  Recorder r({"CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))",
              "CON(RPL(SW1.Done), RPL(SW2.Done))"});
  r.feed(occ("RPL(SW2.Done)", "hic1", 1));
  r.feed(occ("RPL(CntrlCoverage.OK)", "hic1", 2));
  r.feed(occ("RPL(SW1.Done)", "hic1", 3));
  // The inner composite first, then the outer one it completes, in the same cycle.
  EXPECT_EQ(r.seen, (Seen{"CON(RPL(SW1.Done), RPL(SW2.Done))[RPL(SW1.Done)@3 RPL(SW2.Done)@1]",
                          "CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done)))"
                          "[RPL(CntrlCoverage.OK)@2 CON(RPL(SW1.Done), RPL(SW2.Done))"
                          "[RPL(SW1.Done)@3 RPL(SW2.Done)@1]@3]"}));
  EXPECT_EQ(r.detector().graph().size(), 5u);  // the shared inner CON is one node
  EXPECT_EQ(r.detector().active_instances(), 0u);
}

// Property: with several instances interleaved at random, per-instance detection of SEQ finds
// exactly what a detector running on each instance's occurrences alone finds.
TEST(EventDetector, InterleavedInstancesDetectAsIfAlone) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<Value> stream =
        testing::random_stream(rng, 60, {"REQ(a)", "REQ(b)"}, "i", 4, /*ties=*/false);
    Recorder together({"SEQ(REQ(a), REQ(b))"});
    together.feed(stream);
    std::vector<std::string> alone;
    for (int i = 0; i < 4; ++i) {
      Recorder one({"SEQ(REQ(a), REQ(b))"});
      for (const Value& o : stream)
        if (field(o, kInstance) == Value("i" + std::to_string(i))) one.feed(o);
      alone.insert(alone.end(), one.seen.begin(), one.seen.end());
    }
    std::sort(alone.begin(), alone.end());
    std::sort(together.seen.begin(), together.seen.end());
    EXPECT_EQ(together.seen, alone);
  }
}

}  // namespace
}  // namespace cwf::eca
