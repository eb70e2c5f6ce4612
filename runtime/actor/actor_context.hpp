// What an actor sees of the runtime: its name, the workflow clock, error reporting and, while it
// fires, the window it fires on and the way to emit. Both contexts are thin views of the actor's
// cell in the running workflow; calls are direct (not virtual) because emit is on the per-event
// path.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/case_id.hpp"
#include "runtime/actor/event.hpp"
#include "runtime/actor/external_wake.hpp"
#include "runtime/actor/window.hpp"
#include "runtime/time/clock.hpp"

namespace cwf {

class ActorCell;
struct ActorStats;

class ActorContext {
 public:
  explicit ActorContext(ActorCell& cell) : cell_(&cell) {}

  const std::string& name() const;
  // The name of the workflow the actor runs in (its file's `name:`; a sub-workflow's own).
  const std::string& workflow_name() const;
  // The runtime's side of this actor (for runtime actors such as composites, not for plain ones).
  ActorCell& cell() const { return *cell_; }
  Clock& clock() const;
  ActorStats& stats() const;
  // Events that arrived too late for their window (a join's side behind the other): counted, in
  // the summary and the exit status, also when this actor is inside a sub-workflow.
  void count_late(std::uint64_t events = 1) const;
  // Reject input as invalid (a malformed line, a failed conversion, an event for an unknown
  // instance): counted, the first few printed on stderr with the actor's declaration, the event
  // being fired on and the input line it came from; the workflow keeps running, and the run's
  // exit status says that it was not complete.
  void report_error(std::string_view message) const;
  // Input kept but not whole (a field out of range left out of a statistic): counted and shown
  // like an error, but a warning does not change the exit status of a run.
  void report_warning(std::string_view message) const;
  // A sink could not confirm that `events` events reached their destination (a write error, a
  // failed flush): counted as possibly lost.
  void report_loss(std::uint64_t events, std::string_view message) const;
  // `events` events were dropped on purpose (a source that cannot be slowed, over its limit):
  // counted as dropped.
  void report_dropped(std::uint64_t events, std::string_view message) const;

  // How long a wait at the end of the run may take: `wanted`, cut to what is left before the run
  // must be over (cwf run --for and its grace period), but not below a second.
  Duration time_to_finish(Duration wanted) const;
  // In initialize(): this run resumes from a checkpoint, and restore_state follows. A sink keeps
  // its output file instead of emptying it (restore_state cuts it back to the checkpoint).
  bool resuming() const;
  // In initialize() and after: this run takes checkpoints (cwf run --checkpoint-dir or --resume),
  // and Actor::checkpoint_committed follows each one written.
  bool takes_checkpoints() const;
  // The actor's handle for being woken from outside the workflow's threads (external_wake.hpp);
  // every call gives a handle to the same actor. Ask for it in initialize(). A source is fired
  // again when woken (await_input); any other actor gets a firing without a window (port() -1,
  // time() the clock's), in which it takes what came.
  ExternalWake external_wake() const;
  // Whether anything is connected to the output port (optional outputs such as `errors`).
  bool connected(int output_port) const;
  // Whether a source may wait for its ExternalWake: not on a virtual clock (simulated time would
  // move on past input still to come) nor inside a sub-workflow (whose director runs only while
  // the sub-workflow fires: nothing would run the woken source). A source that can also work
  // without waiting (reading a file in its firings) asks this first.
  bool can_await_input() const;
  // An actor that is not a source and has handed work outside the workflow (a request whose
  // reply comes on another thread): while `awaiting`, its input does not end and the run waits
  // for it; at the end of input the times it asked for with fire_again_at keep their time (its
  // deadline for the reply) instead of coming due at once. Set it back to false once nothing is
  // outstanding. Throws std::logic_error for a source (it waits with await_input).
  void await_outside(bool awaiting) const;

  // ---- sources that read lines: what error messages downstream name as the input position ----
  // The input's name (a path as the user wrote it), set once.
  void set_input_name(std::string name) const;
  // The next token this source emits comes from line `line` of its input.
  void note_input_line(std::uint64_t line) const;

  // ---- case cancellation (CWP4, runtime/actor/case_id.hpp), from initialize() ----
  // The actors a cancel actor's cancellations reach (`reaches`, by name), and those of them
  // whose outputs get retraction records (`retracts`; each remembers its last `remember`
  // outputs). Returns the scope to pass to cancel_case. Throws std::invalid_argument for a name
  // that is not an actor of the workflow.
  std::size_t declare_cancellation_scope(const std::vector<std::string>& reaches,
                                         const std::vector<std::string>& retracts,
                                         std::size_t remember) const;

 protected:
  ActorCell* cell_;
};

class FiringContext : public ActorContext {
 public:
  // `window` must outlive the context.
  FiringContext(ActorCell& cell, int port, const Window& window)
      : ActorContext(cell), port_(port), window_(window) {}

  // The input port whose window triggered this firing (-1 when a source fires, or at a time the
  // actor asked for with fire_again_at).
  int port() const { return port_; }
  std::span<const Event> window() const { return window_.events; }
  // The whole window: its group and the events' arrival numbers too (incremental actors).
  const Window& window_info() const { return window_; }
  // The first token of the window: all a one-event-per-firing actor needs.
  const Value& token() const { return window_.events.front().token; }
  // The token of window event `i` for an actor that changes it and sends it on: moved out of an
  // owned window (Window::owned: a FIFO port), a copy otherwise. With Value::mutable_slots the
  // actor then updates a record in place instead of allocating a new one. From an owned window
  // the event's token is null afterwards (token() included). Throws std::out_of_range past the
  // window's end (a source's empty window).
  Value take(std::size_t i = 0) const;

  // Emit a token; the time keeper stamps it (time of the window, next child wave tag).
  void emit(int output_port, Value token);
  void emit(Value token) { emit(0, std::move(token)); }

  // ---- time- and wave-aware actors ----
  Timestamp time() const { return window_.time; }
  const WaveTag& wave() const;
  // Timestamp for the outputs emitted after this call (sources: the external event's time).
  void set_output_time(Timestamp time);
  // Emit an event stamped by the actor itself, bypassing the time keeper.
  void emit_event(int output_port, Event event);

  // ---- answering later (a request whose reply comes from outside the workflow) ----
  // Keeps this firing's last output for later and returns its wave tag: the child after every
  // output emitted so far, marked last, so wave windows downstream (CWP3) wait for it. A later
  // firing sends it with emit_deferred, or gives it up with drop_deferred; the actor keeps the
  // tag meanwhile (in its checkpoints too). Nothing may be emitted after it in this firing.
  // Throws std::logic_error in a firing that is not on an event (a source's, a timer's, the end
  // of input's) or when the firing already deferred an output.
  WaveTag defer();
  // Emits `token` on `output_port` as the deferred output `tag`, stamped with this firing's time.
  void emit_deferred(int output_port, Value token, const WaveTag& tag);
  // The deferred output `tag` will not come: wave windows downstream complete without it.
  void drop_deferred(const WaveTag& tag);

  // ---- timers ----
  // A source: do not fire it again before `time` on the workflow clock (pacing, polling). Any
  // other actor: fire it once more when the clock reaches `time` (Ptolemy's fireAt; each call
  // asks for one firing), with an empty window whose time is `time` and port() -1; its outputs
  // start new waves. At the end of input the times still to come are due at once, and later
  // requests are not taken.
  void fire_again_at(Timestamp time);
  // A source with nothing to read now: not fired again before its ExternalWake is woken (or the
  // time asked for with fire_again_at comes, whichever is first).
  void await_input();

  // Cancels the case in the scope declared by declare_cancellation_scope (CWP4): every actor
  // the scope reaches removes the case's events before it fires again.
  void cancel_case(CaseId what, std::size_t scope) const;
  // The consumed-if-fired default of delete-used windows can be overridden per firing.
  void set_consumed(bool consumed) { consumed_ = consumed; }
  bool consumed() const { return consumed_; }

 private:
  int port_;
  const Window& window_;  // outlives the context: a firing's context lives inside its firing
  bool consumed_ = true;
};

}  // namespace cwf
