// The actor API. An actor declares its ports in its constructor (those of its type: ActorPorts,
// declared once for the constructor and the registration) and implements the Kepler-style
// lifecycle: initialize once, then per window prefire (may I fire?), fire (read the window, emit
// tokens), postfire (post-condition: keep going?), end_of_input once no input can come, and
// wrapup once at the end.
//
// Plain actors only read tokens and emit tokens: the runtime's time keeper stamps every output
// with the timestamp and a child wave tag of the window being processed. Time- and wave-aware
// actors read `time()` / `wave()` and may set them (see FiringContext).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/actor_context.hpp"
#include "runtime/actor/actor_ports.hpp"
#include "runtime/actor/case_id.hpp"
#include "runtime/actor/port.hpp"

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

class Actor {
 public:
  virtual ~Actor() = default;

  std::span<const PortSpec> inputs() const { return inputs_; }
  std::span<const PortSpec> outputs() const { return outputs_; }
  int input_index(std::string_view name) const;
  int output_index(std::string_view name) const;
  // Sources have no inputs; the director fires them to bring events in.
  bool is_source() const { return inputs_.empty(); }
  // An actor declared with `parallelism: N` runs as N replicas, each an Actor of its own, and
  // knows N (1 for an actor without replicas). An actor whose results for one key are spread over
  // the replicas (a sum every replica holds part of) says so in what it emits, so that whoever
  // gathers the parts knows how many to wait for.
  int replica_count() const { return replicas_; }
  void set_replica_count(int replicas) { replicas_ = replicas; }

  virtual void initialize(ActorContext&) {}
  // Called with the window about to be fired on; false skips the window.
  virtual bool prefire(FiringContext&) { return true; }
  virtual void fire(FiringContext& context) = 0;
  // False means the actor is finished: a source is exhausted, or an actor wants no more input.
  virtual bool postfire(FiringContext&) { return true; }
  // Called once when no input can reach the actor any more: the run's input has ended, every
  // actor upstream of it is done and it has fired on everything that reached it. An actor that
  // holds events back until time moves on (a join waiting for its other input) emits what it
  // still holds. The firing has no window: port() is -1, time() is that of the last window fired
  // on, and what it emits belongs to no wave. Inside a sub-workflow it is called when the
  // sub-workflow's actor is told (its input ends then). Not called on or after a cycle of
  // connections.
  virtual void end_of_input(FiringContext&) {}
  // Whether sources of the run live inside this actor and have not finished (a sub-workflow with
  // a source of its own, such as a followed file): the run's input goes on while they run, as
  // for the run's own sources (Execution::quiescent). Any thread.
  virtual bool runs_sources() const { return false; }
  // A source whose events come from this workflow's actors in other processes (a process inlet,
  // docs/architecture.md "Processes"): it ends when they have, which may be after this
  // process's own input ended, so the run's end of input does not wait for it; the actors it
  // feeds, directly or not, end once it has.
  virtual bool fed_by_other_processes() const { return false; }
  // Whether the actor cannot take more input now (a process outlet whose receiving process is
  // behind): its cell then neither fires it nor takes its input in, so that its input queues
  // fill and hold back their producers, and the run is not over meanwhile; the actor wakes its
  // cell (ExternalWake) once it can take more. Any thread.
  virtual bool holds_back_input() const { return false; }
  // Whether holds_back_input can ever hold: the cell asks it between firings only then.
  bool may_hold_back_input() const { return may_hold_back_; }
  // A case was cancelled (CWP4, see runtime/actor/case_id.hpp) and this actor is in the
  // cancellation's scope: forget what it keeps of the case (counts, held events, partial
  // results) and, if that changes what it reported, emit the correction. The engine has already
  // removed the case's events from this actor's queues and windows, and emits the retraction
  // records of remembered outputs itself. Called between two firings on the actor's own thread;
  // the firing has no window (port() is -1). The default keeps nothing per case: it does nothing.
  virtual void retract(const CaseId& /*cancelled*/, FiringContext&) {}
  virtual void wrapup(ActorContext&) {}

  // ---- progress (docs/architecture.md, "Progress") ----
  // Whether the actor is fired on progress marks that reach its FIFO inputs: a one-event window
  // whose event is a punctuation (Event::wave.is_progress()), no data, whose time says that
  // nothing earlier will come on that port. An actor that waits for its inputs to move past a
  // time (a lookup into a table that another path keeps) releases what it holds on them instead
  // of waiting for the next event or the end of input. The engine then sends the marks from
  // every actor upstream.
  virtual bool takes_progress() const { return false; }
  // How far this actor's outputs have got, given that its inputs have got to `inputs` (nothing
  // earlier than it will come in) and it has fired on every window ready: nothing it emits from
  // now on may be earlier than the result. The default fits an actor whose outputs are stamped
  // with the window they come from (the time keeper's rule); one that holds events back returns
  // what it still holds.
  virtual Timestamp output_progress(Timestamp inputs) const { return inputs; }
  // A parameter the actor's type declares changeable (ParamSpec::changeable) was changed while
  // the workflow runs (`cwf set` on a server): take `param`'s value from `rebuilt`, an actor of
  // the same type built from the same declaration with the new value (the loader checked and
  // compiled it). Called between two firings on the thread that fires this actor.
  virtual void adopt_parameter(std::string_view /*param*/, Actor& /*rebuilt*/) {}

  // ---- checkpoints (cwf run --checkpoint-dir; docs/architecture.md, "Checkpoints") ----
  // What a checkpoint must keep of this actor besides what the engine keeps for it (its queued
  // events, windows and wave numbering):
  //  - none: nothing; every output follows from the window being fired on and the parameters;
  //  - own: the actor writes its state in save_state and reads it back in restore_state;
  //  - unsupported: it keeps state it cannot write. A run that takes checkpoints refuses the
  //    workflow, naming the actor, rather than save it in part.
  // The default is unsupported, so that an actor is never silently half-saved.
  enum class Checkpointing { none, own, unsupported };
  virtual Checkpointing checkpointing() const { return Checkpointing::unsupported; }
  // With Checkpointing::own. Called between firings, at a point where the workflow is drained (no
  // actor fires, every input queue is empty), on the thread taking the checkpoint. A sink makes
  // what it wrote so far durable here and writes how much that is.
  virtual void save_state(SnapshotWriter& /*out*/, ActorContext&) {}
  // Reads what save_state wrote, in a resumed run, after initialize() (where
  // ActorContext::resuming() was true) and before anything fires. Throws SnapshotError (from the
  // reader, or through SnapshotReader::reject) for state that does not fit this actor; an input
  // that is not there any more, or an output shorter than it was, is a std::runtime_error.
  virtual void restore_state(SnapshotReader& /*in*/, ActorContext&) {}
  // With Checkpointing::own: the checkpoint of the last save_state call is durable now (a resumed
  // run would start from it). Called right after the commit, on the checkpointing thread, while
  // no actor fires. What an actor acknowledges to the world outside (a JetStream consumer's
  // messages) waits for this, not for save_state: a checkpoint may still fail to be written.
  virtual void checkpoint_committed(ActorContext&) {}

 protected:
  Actor() = default;
  // Declares the fixed ports of the actor's type, in order: fixed port i is index i.
  explicit Actor(const ActorPorts& ports);
  // Declares the member `value` of a family of the type's ports (to_<neighbour>, "b2": to_b2),
  // documented as the family is; returns its index.
  int add_family_input(const PortSpec& family, std::string_view value);
  int add_family_output(const PortSpec& family, std::string_view value);
  // One port at a time, for an actor that is no registered type and so has no ActorPorts: a
  // sub-workflow's boundary, a wrapper taking another actor's ports, the inner actors of a
  // composite, test actors.
  int add_input(std::string name, std::string doc = {});
  int add_output(std::string name, std::string doc = {});

 private:
  std::vector<PortSpec> inputs_;
  std::vector<PortSpec> outputs_;
  int replicas_ = 1;
  bool may_hold_back_ = false;

 protected:
  // For an actor that overrides holds_back_input, in its constructor.
  void set_may_hold_back_input() { may_hold_back_ = true; }
};

}  // namespace cwf
