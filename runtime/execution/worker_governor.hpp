// How many of the scheduled director's workers take grants: all of them, unless one was measured
// to get more done than all of them together.
//
// A second worker is not free. Events made on one core and read, changed and freed on another
// cost every actor more per event, and where the work between two hand-overs is small that cost
// is larger than what the second core adds: Linear Road's single chain ran at 3.8 M tuples/s on
// two workers and 5.0 M on one (docs/performance.md). Which case a workflow is in depends on its
// actors, its data and the machine, and can change as the run goes, so it is measured, not
// guessed: now and then the run tries one worker and all of them in turn, a few tenths of a
// second each, and goes on with whichever got more done (events taken in by every actor), all of
// them on a tie. What the trial costs shrinks as the same answer keeps coming back (the time
// between trials doubles), and a trial that all the workers win by far after its first two phases
// ends there. A run with too little to do to tell (paced sources keeping up) keeps every worker.
//
// Pure bookkeeping, no threads: worker 0 reports the wall time and the events taken in so far
// (ScheduledDirector), the governor says how many workers may take grants from then on.
#pragma once

#include <cstdint>

#include "runtime/time/clock.hpp"

namespace cwf {

class WorkerGovernor {
 public:
  struct Settings {
    Duration warm_up = 250 * kMillisecond;  // all workers, before the first trial
    Duration phase = 100 * kMillisecond;    // one of the trial's four phases: 1, all, 1, all
    Duration first_hold = 2 * kSecond;      // until the next trial
    Duration longest_hold = 16 * kSecond;   // the hold doubles up to this while answers repeat
    double margin = 1.2;                    // one worker must do this much more to be chosen
    // All workers this much ahead of one after the trial's first two phases: every worker wins
    // there, and the second phase of one worker alone is not run (it is what a trial costs where
    // the second worker pays off). 0: every trial runs its four phases.
    double decisive_lead = 1.5;
    std::uint64_t least_events = 20000;  // fewer in a trial: too little work to tell
  };

  WorkerGovernor(unsigned workers, Settings settings);
  explicit WorkerGovernor(unsigned workers) : WorkerGovernor(workers, Settings{}) {}

  // `now`: wall time since any fixed point; `events`: events taken in by every actor so far.
  // Returns how many workers may take grants from now on.
  unsigned observe(Duration now, std::uint64_t events);
  unsigned active() const { return active_; }

  // What it did, for the run's summary and for tests.
  std::uint64_t trials() const { return trials_; }
  std::uint64_t trials_won_by_one() const { return won_by_one_; }
  // Wall time between the first and the last observation with one worker taking grants.
  Duration time_with_one() const { return time_with_one_; }

 private:
  enum class Stage { starting, warming_up, trial, holding };
  void start_trial(Duration now, std::uint64_t events);
  void begin_phase(Duration now, std::uint64_t events);  // phase_ of the trial, from now
  // After the first phase of each kind: every worker took in so much more than one that the
  // rest of the trial could not change the answer, by the margin, unless the load changed.
  bool all_lead_decisively() const;
  bool enough_to_tell() const;  // the phases so far took in least_events or more
  void decide(Duration now);

  unsigned workers_;
  Settings settings_;
  unsigned active_;
  Stage stage_ = Stage::starting;
  Duration stage_end_ = 0;
  int phase_ = 0;  // 0..3 during a trial: one worker on even phases, all on odd
  std::uint64_t phase_start_events_ = 0;
  std::uint64_t events_one_ = 0, events_all_ = 0;
  Duration hold_;
  bool chose_one_ = false;
  std::uint64_t trials_ = 0, won_by_one_ = 0;
  Duration last_seen_ = 0;
  Duration time_with_one_ = 0;
};

}  // namespace cwf
