// A workflow being run: one ActorCell per actor, receivers created and routes wired from the
// workflow's connections. Directors drive an Execution; the Execution knows nothing of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/execution/actor_cell.hpp"
#include "runtime/execution/case_cancellations.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf {

class Execution {
 public:
  Execution(Workflow& workflow, Clock& clock);
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  Workflow& workflow() { return workflow_; }
  const Workflow& workflow() const { return workflow_; }
  ExecutionEnv& env() { return env_; }
  Clock& clock() { return *env_.clock; }
  std::size_t size() const { return cells_.size(); }
  ActorCell& cell(ActorId id) { return *cells_[id]; }
  const ActorCell& cell(ActorId id) const { return *cells_[id]; }
  const std::vector<ActorId>& downstream(ActorId id) const { return downstream_[id]; }
  CaseCancellations& cancellations() { return *cancellations_; }
  const CaseCancellations& cancellations() const { return *cancellations_; }

  // Directors install themselves before initialize().
  void set_listener(ReadyListener& listener) { env_.listener = &listener; }
  // Calls every actor's initialize() (errors propagate: a workflow that cannot start does not).
  void initialize();
  // Wake every source so the director fires it.
  void wake_sources();
  // While the director runs (after start, until run returns): the sources' ExternalWakes reach
  // their cells; before and after, a wake does nothing.
  void arm_external_wakes(bool armed);
  // Wake every actor (a resumed run: each tells the director the time it waits for).
  void wake_all();
  void wrapup();

  // True when nothing can happen any more before the end of input: every source of this
  // process's own input finished and every cell idle. Safe to call from any thread while cells
  // run (two reads of the wake-up counter bracket the scan). Process inlets
  // (Actor::fed_by_other_processes) are not waited for: what they bring wakes their cells.
  bool quiescent() const;
  // Every source finished, process inlets included.
  bool sources_finished() const;
  // Every process inlet finished (true without any): quiescent after the end of input, the run
  // is over once this holds too.
  bool inlets_finished() const;
  // The earliest deadline of a window holding events on or after a cycle (kNever: none). When
  // the run is quiescent, the end of input would close every window at once, and what one
  // window's results bring back round the cycle would find later windows closed: time moves to
  // this deadline first (a virtual clock jumps to it, a real one is waited for), so windows on a
  // cycle close in the order of their times. Read while the cells are idle.
  Timestamp cycle_window_deadline() const;
  // A checkpoint may be taken: no actor but the sources has work, and every inbox is empty (what
  // is queued is in windows and FIFO queues, which checkpoints hold). Sources are the director's
  // to judge: held (ExecutionEnv::hold_sources), they fire no more once their running turn ends.
  // Safe to call from any thread, as quiescent() is.
  bool drained() const;
  // Firings of the sources so far (their statistics).
  std::uint64_t source_firings() const;
  // Ask sources to stop; queued work still completes (drain).
  void stop_sources();
  // No more input will come: wake every actor so its receivers close their open windows.
  void end_input();

 private:
  // Tells each wave window which of its producers carry which actors' waves (WaveCompletion);
  // `producer_of_connection[i]`: the producer index of connection i on its receiver.
  void tell_wave_windows_their_carriers(const std::vector<std::size_t>& producer_of_connection);
  // Gives each cell the process inlets upstream of it (ActorCell::input_has_ended).
  void find_upstream_inlets();

  Workflow& workflow_;
  ExecutionEnv env_;
  std::vector<std::uint32_t> ordinals_;  // by actor: the space its waves' root sequences are in
  std::vector<std::unique_ptr<ActorCell>> cells_;
  std::vector<std::vector<ActorId>> downstream_;
  std::unique_ptr<CaseCancellations> cancellations_;
};

}  // namespace cwf
