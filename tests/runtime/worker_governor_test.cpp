// WorkerGovernor: a warm-up on every worker, then trials of one worker against all of them
// (1, all, 1, all), the run going on with whichever took in more events, the time between trials
// doubling while the answer repeats; a trial that all the workers lead by far after two phases
// ends there.
#include "runtime/execution/worker_governor.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cwf {
namespace {

WorkerGovernor::Settings small() {
  WorkerGovernor::Settings s;
  s.warm_up = 10;
  s.phase = 10;
  s.first_hold = 100;
  s.longest_hold = 400;
  s.margin = 1.05;
  s.least_events = 100;
  s.decisive_lead = 0;  // four phases in every trial, unless a test says otherwise
  return s;
}

// Feeds a governor: `now` moves on by whole phases, `events` by what each phase took in.
struct Driver {
  WorkerGovernor governor;
  Duration now = 0;
  std::uint64_t events = 0;
  unsigned at(Duration t, std::uint64_t more = 0) {
    now = t;
    events += more;
    return governor.observe(now, events);
  }
  // A whole trial from `start`: what was active in each phase, then after it.
  std::vector<unsigned> trial(Duration start, std::uint64_t one, std::uint64_t all) {
    std::vector<unsigned> active{at(start)};
    active.push_back(at(start + 10, one));
    active.push_back(at(start + 20, all));
    active.push_back(at(start + 30, one));
    active.push_back(at(start + 40, all));
    return active;
  }
};

TEST(WorkerGovernor, EveryWorkerWarmsUpThenATrialPicksOneWorkerThatTookInMore) {
  Driver d{WorkerGovernor(2, small())};
  EXPECT_EQ(d.at(0), 2u);
  EXPECT_EQ(d.at(9, 5000), 2u);  // warming up
  // Phases: one worker, all, one, all; then the answer: 2 x 300 against 2 x 200.
  EXPECT_EQ(d.trial(10, 300, 200), (std::vector<unsigned>{1, 2, 1, 2, 1}));
  EXPECT_EQ(d.governor.trials(), 1u);
  EXPECT_EQ(d.governor.trials_won_by_one(), 1u);
  EXPECT_EQ(d.at(149, 1000), 1u);  // held for first_hold (100) after the trial ended at 50
  EXPECT_EQ(d.at(150), 1u);        // the next trial starts, with one worker
  // One worker alone from 10 to 20, 30 to 40 and 50 to 150.
  EXPECT_EQ(d.governor.time_with_one(), 120);
}

TEST(WorkerGovernor, AllWorkersStayWhenTheyTookInMoreOrAsMuch) {
  Driver d{WorkerGovernor(4, small())};
  d.at(0);
  EXPECT_EQ(d.trial(10, 200, 300), (std::vector<unsigned>{1, 4, 1, 4, 4}));
  // Within the margin (5 %): a tie, which all of them win.
  EXPECT_EQ(d.trial(150, 204, 200), (std::vector<unsigned>{1, 4, 1, 4, 4}));
  EXPECT_EQ(d.governor.trials(), 2u);
  EXPECT_EQ(d.governor.trials_won_by_one(), 0u);
}

TEST(WorkerGovernor, TooLittleWorkToTellKeepsEveryWorker) {
  Driver d{WorkerGovernor(2, small())};
  d.at(0);
  // One worker did three times as much, but 49 events in all are too few to tell (100).
  EXPECT_EQ(d.trial(10, 20, 4).back(), 2u);
  EXPECT_EQ(d.governor.trials_won_by_one(), 0u);
}

TEST(WorkerGovernor, TheHoldDoublesWhileTheAnswerRepeatsUpToTheLongestAndResetsWhenItChanges) {
  Driver d{WorkerGovernor(2, small())};
  d.at(0);
  d.trial(10, 300, 200);  // ends at 50: held 100
  EXPECT_EQ(d.at(149), 1u);
  d.trial(150, 300, 200);  // ends at 190, same answer: held 200
  EXPECT_EQ(d.at(389), 1u);
  EXPECT_EQ(d.governor.trials(), 2u);
  d.trial(390, 300, 200);  // ends at 430: held 400, the longest
  EXPECT_EQ(d.governor.trials(), 3u);
  d.at(829);
  d.trial(830, 300, 200);  // ends at 870: held 400 again
  EXPECT_EQ(d.governor.trials(), 4u);
  d.at(1269);
  EXPECT_EQ(d.governor.trials(), 4u);
  d.trial(1270, 200, 300);  // ends at 1310, the answer changed: every worker, held 100
  EXPECT_EQ(d.governor.active(), 2u);
  EXPECT_EQ(d.at(1409), 2u);
  EXPECT_EQ(d.at(1410), 1u);  // the next trial
  EXPECT_EQ(d.governor.trials(), 5u);
}

TEST(WorkerGovernor, ATrialThatAllTheWorkersLeadByFarEndsAfterTwoPhases) {
  WorkerGovernor::Settings settings = small();
  settings.decisive_lead = 1.5;
  Driver d{WorkerGovernor(2, settings)};
  d.at(0);
  EXPECT_EQ(d.at(10), 1u);       // the trial: one worker
  EXPECT_EQ(d.at(20, 200), 2u);  // then all
  EXPECT_EQ(d.at(30, 300), 2u);  // 300 >= 1.5 x 200: decided, all of them, held from 30
  EXPECT_EQ(d.governor.trials(), 1u);
  EXPECT_EQ(d.governor.trials_won_by_one(), 0u);
  EXPECT_EQ(d.at(129, 1000), 2u);  // held for first_hold (100)
  EXPECT_EQ(d.at(130), 1u);        // the next trial
  // One worker alone from 10 to 20 only, the second phase of one worker not run.
  EXPECT_EQ(d.governor.time_with_one(), 10);
}

TEST(WorkerGovernor, ALeadShortOfDecisiveOrOneWorkerAheadRunsTheWholeTrial) {
  WorkerGovernor::Settings settings = small();
  settings.decisive_lead = 1.5;
  Driver d{WorkerGovernor(2, settings)};
  d.at(0);
  // All ahead, but 299 < 1.5 x 200: four phases, all of them win (2 x 299 against 2 x 200).
  EXPECT_EQ(d.trial(10, 200, 299), (std::vector<unsigned>{1, 2, 1, 2, 2}));
  d.at(149);
  // One worker ahead after two phases: never decided early (only every worker is), and it wins.
  EXPECT_EQ(d.trial(150, 300, 200), (std::vector<unsigned>{1, 2, 1, 2, 1}));
  // A decisive lead with too few events to tell (least_events 100): four phases.
  d.at(289);
  EXPECT_EQ(d.trial(290, 10, 40), (std::vector<unsigned>{1, 2, 1, 2, 2}));
  EXPECT_EQ(d.governor.trials(), 3u);
}

TEST(WorkerGovernor, OneWorkerIsNeverTried) {
  Driver d{WorkerGovernor(1, small())};
  for (Duration t = 0; t < 1000; t += 10)
    EXPECT_EQ(d.at(t, 1000), 1u);
  EXPECT_EQ(d.governor.trials(), 0u);
}

}  // namespace
}  // namespace cwf
