// One actor of a running workflow: its receivers, its routes to downstream receivers, its time
// keeper, its statistics and its scheduling state. Directors decide *when* a cell runs; the cell
// knows *how* to run: drain the inbox into the windows, fire once per window, stamp and route the
// outputs.
//
// Scheduling state is two bits: SCHEDULED (handed to the director and not yet back to idle) and
// NOTIFIED (new input since the cell last drained). A producer sets both with one atomic RMW and
// calls the director only on the idle -> scheduled edge, so an actor is never queued twice and
// never loses a wake-up, on any number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/actor/actor_stats.hpp"
#include "runtime/execution/input_origin.hpp"
#include "runtime/execution/output_watcher.hpp"
#include "runtime/execution/problem_report.hpp"
#include "runtime/execution/receiver.hpp"
#include "runtime/execution/time_keeper.hpp"
#include "runtime/graph/queue_limits.hpp"
#include "runtime/graph/route_rule.hpp"
#include "runtime/time/clock.hpp"

namespace cwf {

class ActorCell;
class CaseCancellations;
class SnapshotReader;
class SnapshotWriter;

// The director side of a wake-up: called once when an idle cell gets work.
class ReadyListener {
 public:
  virtual ~ReadyListener() = default;
  virtual void make_ready(ActorCell& cell) = 0;
};

// Shared by the cells of one running workflow.
struct ExecutionEnv {
  Clock* clock = nullptr;
  ReadyListener* listener = nullptr;
  std::atomic<bool> stop_sources{false};  // drain: sources stop, queued work completes
  // Every source finished and everything queued was processed: receivers close the windows
  // still open (end of input acts as time moving past every window).
  std::atomic<bool> end_of_input{false};
  std::atomic<std::uint64_t> wakeups{0};  // idle -> scheduled transitions (quiescence check)
  // The input positions of each source's events, by source ordinal (see InputOrigin).
  std::vector<const InputOrigin*> origins;
  // When the run must be over (steady clock, ns; cwf run --for plus its grace period): waits at
  // the end of the run (a sink's final flush) are cut to it.
  std::atomic<std::int64_t> finish_by_ns{std::numeric_limits<std::int64_t>::max()};
  // The run ended at its time limit (RunOptions::finish_grace) with events still queued.
  std::atomic<bool> time_was_up{false};
  // The run ended at a checkpoint it wrote (RunOptions::suspend_requested): the events still in
  // windows are in that checkpoint, not lost.
  std::atomic<bool> suspended{false};
  // Inside a composite: the outer actor, which counts and reports the inner actors' problems.
  ActorCell* parent = nullptr;
  // The cases cancelled so far (CWP4), set by the Execution.
  CaseCancellations* cancellations = nullptr;
  // Checkpoints: while set, sources do not fire (the rest of the workflow drains, then the
  // checkpoint is written and the director wakes the sources).
  std::atomic<bool> hold_sources{false};
  // The run resumes from a checkpoint (ActorContext::resuming), set before initialize().
  bool resuming = false;
  // The run takes checkpoints (ActorContext::takes_checkpoints), set before initialize().
  bool takes_checkpoints = false;
  // The workflow's name (ActorContext::workflow_name).
  std::string workflow_name;
  // Its director fires one cell at a time, all on one thread (one worker): a producer that
  // waits for room and the consumer that makes it never run at once (Receiver::drain).
  bool cells_fire_one_at_a_time = false;
};

constexpr Timestamp kNever = std::numeric_limits<Timestamp>::max();

class ActorCell {
 public:
  ActorCell(ActorId id, std::string name, Actor& actor, ExecutionEnv& env,
            std::uint32_t source_ordinal);

  ActorId id() const { return id_; }
  const std::string& name() const { return name_; }
  // What the user wrote: the actor's type and "file:line" of its declaration (error messages).
  void set_declaration(std::string type, std::string location) {
    type_ = std::move(type);
    location_ = std::move(location);
  }
  const std::string& type() const { return type_; }
  const std::string& location() const { return location_; }
  InputOrigin& input_origin() { return input_origin_; }
  Actor& actor() { return actor_; }
  const Actor& actor() const { return actor_; }
  ActorStats& stats() { return stats_; }
  const ActorStats& stats() const { return stats_; }
  ExecutionEnv& env() { return env_; }
  bool is_source() const { return actor_.is_source(); }
  // Whether this cell sends wave punctuations (some wave window downstream needs them).
  bool punctuates() const { return punctuates_; }
  void set_punctuates(bool on) {
    punctuates_ = on;
    time_keeper_.track_ports(on && routes_.size() > 1);
  }

  // Whether this cell sends progress marks (an actor downstream takes progress: see
  // Actor::takes_progress and docs/architecture.md, "Progress"). Its windowed receivers then
  // track how far their input got.
  bool sends_progress() const { return sends_progress_; }
  void set_sends_progress();

  // ---- wiring (before running) ----
  void set_receiver(int port, std::unique_ptr<Receiver> receiver);
  Receiver* receiver(int port) { return receivers_[static_cast<std::size_t>(port)].get(); }
  // Returns the index of the producer the route is on its receiver. `limits`: what the route may
  // hold (QueueLimits); unbounded for a connection that closes a cycle.
  // With `rule`, the route is receiver `receiver` of it (a connection with partition_by): an
  // event emitted on the port goes on it only when the rule picks it. With wave punctuations on,
  // the receivers not picked get the event's punctuation, so that their waves still complete.
  std::size_t add_route(int output_port, Receiver& target, QueueLimits limits = kUnboundedQueue,
                        std::shared_ptr<const RouteRule> rule = nullptr, int receiver = -1);
  // Where the events that expire from input port `input_port`'s windows go (pattern CWP6).
  void add_expired_route(int input_port, Receiver& target, QueueLimits limits = kUnboundedQueue);
  static constexpr QueueLimits kUnboundedQueue{QueueLimits::kUnbounded, Overload::block};
  std::size_t route_count(int output_port) const {
    return routes_[static_cast<std::size_t>(output_port)].size();
  }

  // ---- scheduling state ----
  // Producer side: new input arrived (any thread).
  void notify() {
    auto old = state_.fetch_or(kScheduled | kNotified, std::memory_order_acq_rel);
    if (!(old & kScheduled)) {
      env_.wakeups.fetch_add(1, std::memory_order_relaxed);
      env_.listener->make_ready(*this);
    }
  }
  // Mark a cell with work without new input (sources at start, timers).
  void wake() { notify(); }
  // Back to idle unless input arrived since the last drain; false means: run again.
  bool try_go_idle() {
    std::uint8_t expected = kScheduled;
    return state_.compare_exchange_strong(expected, 0, std::memory_order_acq_rel);
  }
  bool idle() const { return state_.load(std::memory_order_acquire) == 0; }

  // ---- running (one thread at a time) ----
  struct CycleResult {
    std::uint32_t firings = 0;
    bool has_more_work = false;  // windows left, or a source that may fire again now
  };
  // Drain the inputs and fire on up to `max_firings` windows (sources: fire up to that often).
  // A cell held back by a full connection (QueueLimits, `block`) neither fires nor takes in, and
  // reports no more work: the consumer that makes room wakes it (notify).
  CycleResult run(std::uint32_t max_firings);
  // Whether a full connection holds the cell back now (by the thread that runs it).
  bool blocked() { return output_full_ && output_blocked(); }
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  // Whether this actor will send nothing more (any thread): a source once it finished; any other
  // actor once the run's input has ended, every actor upstream of it is done and it has fired on
  // everything that reached it and ran its Actor::end_of_input. An actor learns that its input
  // has ended in topological order, so what an upstream actor emits at the end of input reaches
  // it first.
  bool done() const { return is_source() ? finished() : done_.load(std::memory_order_acquire); }
  // A source that asked not to be fired before this time (kNever: not waiting).
  Timestamp fire_again_at() const { return fire_again_at_; }
  // When the director should run this cell even without new input (kNever: no timer): a source's
  // next firing, or a receiver's next window deadline (formation timeout).
  Timestamp timer() const {
    // A source held for a checkpoint is woken when it is written, not by its timer.
    if (is_source())
      return env_.hold_sources.load(std::memory_order_relaxed) ? kNever : fire_again_at_;
    return requested_firings_.empty() ? wake_at_ : std::min(wake_at_, requested_firings_.top());
  }
  // Receivers ask to be run again at `time` on the workflow clock.
  void request_wakeup(Timestamp time) {
    if (time < wake_at_) wake_at_ = time;
  }
  // Events waiting in the input queues, in windows or not yet taken in.
  std::size_t queue_length() const;
  // Events delivered to the inputs that the actor has not taken into its windows yet: its
  // backlog, which only its next turn reduces (unlike events a window holds until it fills).
  std::size_t inbox_length() const;

  void initialize();
  void wrapup();

  // ---- used by FiringContext ----
  TimeKeeper& time_keeper() { return time_keeper_; }
  void send(int port, Event&& event);
  // An event left every future window of input `input_port` without being used up.
  void send_expired(int input_port, Event&& event);
  void emit(int port, Value&& token) {
    time_keeper_.emit(port, std::move(token), [this](int p, Event&& e) { send(p, std::move(e)); });
  }
  // FiringContext::defer, emit_deferred and drop_deferred (time_keeper.hpp, "answers later").
  WaveTag defer_output();
  void emit_deferred(int port, Event&& event);
  void drop_deferred(const WaveTag& tag, Timestamp time);
  // A source is not fired again before `t`; any other actor is fired (once more) at `t`.
  void set_fire_again_at(Timestamp t);
  // ExternalWake (runtime/actor/external_wake.hpp): the state its handles share, made on the
  // first request; armed while the run goes on (Execution::arm_external_wakes), so that a wake
  // before the director started or after the run ended does nothing.
  ExternalWake external_wake();
  void prepare_external_wake();  // Execution::initialize, for every source
  void arm_external_wake(bool armed);
  // FiringContext::await_input: the source waits for its ExternalWake.
  void await_input() { awaiting_input_ = true; }
  // FiringContext::await_outside (an actor that is not a source): work handed outside the
  // workflow is still to come back through its ExternalWake. Its input does not end and the run
  // does not end meanwhile (Execution::quiescent), and the times it asked for keep their time.
  void await_outside(bool awaiting) {
    awaiting_outside_.store(awaiting, std::memory_order_release);
  }
  bool awaits_outside() const { return awaiting_outside_.load(std::memory_order_acquire); }
  // The source's last run ended waiting for its ExternalWake (by the thread that runs it).
  bool waits_for_input() const { return waits_for_input_; }
  // The actor asked for an ExternalWake in initialize(): it waits for input from outside.
  bool wakes_from_outside() const { return asked_for_external_wake_; }
  // Its ExternalWake was woken since the actor last fired (any thread).
  bool woken_from_outside() const {
    return external_ && external_->woken.load(std::memory_order_acquire);
  }
  // Counts a problem and prints the first few on stderr with the actor's declaration, the event
  // (by default the first of the window being fired on) and the input line it came from. Any
  // thread may report for an inner actor of a composite (reports are serialised).
  void report(ProblemKind kind, std::string_view message, const Event* event = nullptr,
              std::uint64_t count = 1);
  // Counts events that arrived too late for their window (not printed one by one: the run's
  // summary lists them per actor). Inside a composite they are the composite's too, as reported
  // problems are, so that the outer run's summary and exit status see them.
  void count_late(std::uint64_t n = 1);
  // The next token this source emits comes from line `line` of its input.
  void note_input_line(std::uint64_t line) {
    input_origin_.note(time_keeper_.next_root_sequence(), line);
  }

  // ---- case cancellation (CWP4: runtime/actor/case_id.hpp,
  // runtime/execution/case_cancellations.hpp) ---- Before the run: keep the last `outputs` outputs,
  // so that those of a cancelled case can be retracted (the largest request wins).
  void remember_outputs(std::size_t outputs) {
    std::lock_guard lock(watchers_mutex_);
    remember_ = std::max(remember_, outputs);
    update_send_hooks();
  }

  // ---- runtime parameter changes (cwf serve's set) ----
  // Any thread: `apply` runs on the thread that fires this actor, before its next firing; the
  // cell is woken for it (a paused workflow applies it when it goes on).
  void request_change(std::function<void()> apply);

  // ---- watchers (live views, CWP5; runtime/execution/output_watcher.hpp) ----
  // Any thread, while the cell runs: `watcher` sees from now on what is sent on `output_port`,
  // until unwatch.
  // `into`: the receiver of the connection watched, where it matters (a port whose routes have
  // a RouteRule: only the events that go into it are seen); null: every event of the port.
  void watch(int output_port, std::shared_ptr<OutputWatcher> watcher,
             const Receiver* into = nullptr);
  void unwatch(const OutputWatcher& watcher);

  // ---- checkpoints (actor_cell_snapshot.cpp) ----
  // The engine's state of this actor, apart from the actor's own, at a drained point (the cell
  // idle, its inboxes empty): sections "time_keeper" (wave numbering), "cell" (finished and done,
  // a source's next firing time, the wake-up asked for, requested firings, cancellations seen,
  // remembered outputs), "input_origin", then one "port:<name>" per input port (its receiver).
  void snapshot_engine_state(SnapshotWriter& out) const;
  // Reads it into the cell of the same actor in the rebuilt workflow, after initialize() and
  // after the run's cancellations were restored (CaseCancellations::restore), before the director
  // starts. Throws SnapshotError for damaged bytes or a state that does not fit this cell.
  void restore_engine_state(SnapshotReader& in);

 private:
  static constexpr std::uint8_t kScheduled = 1, kNotified = 2;

  struct Route {
    Receiver* target;
    std::unique_ptr<ReceiverProducer> producer;
    bool needs_wakeup = false;  // events enqueued since the consumer was last woken
    // Back-pressure (QueueLimits): events sent on the route, how many of them the consumer had
    // taken in when last looked at, and from how many waiting events on the route admit() is
    // asked (the capacity; half of it when sampling; never when unbounded).
    std::uint64_t sent = 0;
    std::uint64_t taken_seen = 0;
    std::uint64_t check_at = QueueLimits::kUnbounded;
    QueueLimits limits = kUnboundedQueue;
    std::uint64_t random = 0x9e3779b97f4a7c15ULL;  // sampling's generator state (xorshift)
    std::uint64_t shed = 0;  // events shed on the route (the first few are reported one by one)
  };
  Route make_route(Receiver& target, QueueLimits limits);
  // A route has as many events waiting as admit() is asked about: whether `event` goes on it
  // (false: it was shed), after looking again at what the consumer took in. A full `block` route
  // lets the event go and marks the cell blocked: it is not fired again until the route has room.
  [[gnu::noinline]] bool admit(Route& route, Event& event);
  // Counts and reports an event shed by an overload policy; where the connection carries wave
  // punctuations its punctuation still goes, so that the wave can complete downstream.
  void shed(Route& route, Event&& event);
  // Whether a route of this cell is full (`block`): then the cell asks each full route's consumer
  // to wake it once half of what waits there has been taken in, and does not fire.
  bool output_blocked();
  // Wake the consumers of everything sent during this run: one atomic per route and run instead
  // of one per event.
  void wake_consumers();
  void deliver_to(std::vector<Route>& routes, Event&& event);
  void deliver_one(Route& route, Event&& event);
  // Sending on a port with routes of a RouteRule: pick_routes asks each rule where the event
  // goes (a key that fails to evaluate is reported, and the event goes to none of the rule's
  // receivers); send_routed gives it to the other routes and to what each rule picked.
  [[gnu::noinline]] void pick_routes(int port, const Event& event);
  [[gnu::noinline]] void send_routed(int port, Event&& event);
  // Whether the event being sent on `port` (routes picked) goes into `into`.
  bool goes_into(int port, const Receiver* into) const;
  bool routed(int port) const {
    return !routing_.empty() && !routing_[static_cast<std::size_t>(port)].groups.empty();
  }
  struct RouteGroup {
    static constexpr int kNone = -2;
    std::shared_ptr<const RouteRule> rule;
    std::vector<std::size_t> routes;  // index in routes_[port] of each receiver of the rule
    // The receiver picked for the event being sent, kEveryReceiver or kNone. The cell sends
    // from one thread at a time, so the pick can live here between pick_routes and delivery.
    int picked = kNone;
    bool gets(std::size_t receiver) const {
      return picked == RouteRule::kEveryReceiver || picked == static_cast<int>(receiver);
    }
  };
  struct PortRouting {
    std::vector<std::size_t> plain;  // routes of no rule: every event
    std::vector<RouteGroup> groups;
  };

  // Keeps the graph's edges between cells (for the end of input, actor by actor).
  void link_to(ActorCell& consumer);

 public:
  // Whether every actor upstream can be done one day (none is on a cycle of connections, nor
  // after one): then this cell's windows see the end of input only once all of them are done
  // (what an actor upstream emits at its own end of input, a join's held events or a deferred
  // reply, still reaches them); otherwise at the run's end of input. Execution sets it.
  void set_inputs_can_end(bool can_end) { inputs_can_end_ = can_end; }
  bool inputs_can_end() const { return inputs_can_end_; }
  const std::vector<ActorCell*>& upstream() const { return upstream_; }
  // The process inlets (Actor::fed_by_other_processes) upstream of this cell, directly or not:
  // its input ends when the run's has and they have finished. Set once wired.
  void set_upstream_inlets(std::vector<const ActorCell*> inlets) {
    upstream_inlets_ = std::move(inlets);
  }
  // Whether no input can come any more (any thread): the run's own input has ended and so has
  // what reaches this cell from other processes.
  bool input_has_ended() const;
  // The deadline of a window holding events in a cell whose inputs cannot end (kNever: none),
  // as of its last run; read by the directors while the cell is idle. Such a window must close
  // at its time, not at the run's end of input: its results can come back round the cycle into
  // windows that the end of input would already have closed (Execution::cycle_window_deadline).
  Timestamp cycle_window_deadline() const {
    return cycle_window_deadline_.load(std::memory_order_acquire);
  }

 private:
  bool upstream_done() const;
  // This actor's input has ended: its end_of_input firing, then done, and its consumers woken.
  void end_own_input();
  CycleResult run_source(std::uint32_t max_firings);
  CycleResult run_windows(std::uint32_t max_firings);
  // Fires the actor once for each time it asked for (fire_again_at) that has come.
  CycleResult run_requested_firings(Timestamp now, bool end_of_input, std::uint32_t max_firings);
  Receiver* earliest_ready_receiver();
  Receiver* earliest_of_receivers();
  void finish();
  std::pair<bool, bool> fire_once(FiringContext& context);
  void end_firing();
  // A firing that emitted nothing tells wave windows downstream so (see WaveCompletion).
  void send_punctuation(const Event& of);
  // With every ready window fired on: a progress mark on every route when the actor's outputs
  // got further than the last mark said.
  void send_progress();
  // A problem of this actor (`inner` empty) or of an actor inside it (a composite's, named by
  // `inner`): counted here, printed here or handed on to the composite around this workflow.
  void report_from_inside(const std::string& inner, ProblemKind kind, std::string_view message,
                          const Event* event, std::uint64_t count);
  void count(ProblemKind kind, std::uint64_t count);
  // Counts a problem that is not printed, here and in the composites around this workflow.
  void count_quietly(ProblemKind kind, std::uint64_t count);
  std::optional<std::string> origin_of(const Event& event) const;
  // Applies the cancellations made since the last run that reach this actor: removes the cases'
  // events from the receivers, calls Actor::retract and emits the retraction records.
  void apply_cancellations();
  void retract(const CaseId& cancelled, bool retract_outputs);

  ActorId id_;
  std::string name_;
  Actor& actor_;
  ExecutionEnv& env_;
  std::string type_, location_;
  ActorStats stats_;
  TimeKeeper time_keeper_;
  InputOrigin input_origin_;
  const Window* firing_window_ = nullptr;  // while firing: the window, for error reports
  std::mutex report_mutex_;
  std::uint64_t problems_shown_ = 0;
  std::vector<std::unique_ptr<Receiver>> receivers_;
  std::vector<std::vector<Route>> routes_;
  std::vector<PortRouting> routing_;  // per output port, once one has a rule; else empty
  std::vector<std::vector<Route>> expired_routes_;  // per input port
  std::vector<Route*> routes_to_wake_;
  std::vector<ActorCell*> upstream_;  // cells that send to this one (routes and expired routes)
  std::vector<const ActorCell*> upstream_inlets_;
  std::vector<ActorCell*> consumers_;  // cells this one sends to
  std::atomic<bool> done_{false};
  std::atomic<std::uint8_t> state_{0};
  std::atomic<bool> finished_{false};
  bool finishing_ = false;  // decided during a run; published as finished_ at its end
  Timestamp fire_again_at_ = kNever;
  std::shared_ptr<ExternalWake::State> external_;  // made before the director starts
  bool asked_for_external_wake_ = false;
  bool awaiting_input_ = false;                // asked for by the firing just made
  bool waits_for_input_ = false;               // how the last run_source ended
  std::atomic<bool> awaiting_outside_{false};  // await_outside: read by the directors' threads
  Timestamp wake_at_ = kNever;
  // Times an actor that is not a source asked to be fired at (Ptolemy's fireAt), earliest first.
  std::priority_queue<Timestamp, std::vector<Timestamp>, std::greater<>> requested_firings_;
  bool requests_closed_ = false;  // after the end of input: no more requested firings
  bool punctuates_ = false;
  bool sends_progress_ = false;
  Timestamp progress_sent_ = kNoProgress;  // the time of the last progress mark sent
  bool inputs_can_end_ = false;
  std::atomic<Timestamp> cycle_window_deadline_{kNever};
  bool output_full_ = false;  // a `block` route reached its capacity (see output_blocked)
  // Case cancellation: the cases cancelled in this actor's scope (its receivers drop their late
  // arrivals), how many of the workflow's cancellations it has looked at, and its last outputs.
  std::vector<const CaseId*> cancelled_cases_;
  std::size_t cancellations_seen_ = 0;
  struct Output {
    int port;
    Event event;
  };
  std::size_t remember_ = 0;
  std::deque<Output> remembered_;
  // What send() does besides delivering, when there is anything (remember_ or watchers): one
  // flag read per event otherwise.
  std::atomic<bool> send_hooks_{false};
  std::atomic<bool> watched_{false};  // watchers_ is not empty
  [[gnu::noinline]] void before_send(int port, const Event& event);
  void update_send_hooks();
  // Changes asked for from other threads (request_change): one flag read per run() otherwise.
  std::atomic<bool> changes_pending_{false};
  std::mutex changes_mutex_;
  std::vector<std::function<void()>> changes_;
  void apply_changes();
  std::mutex watchers_mutex_;
  struct Watch {
    int port;
    const Receiver* into;
    std::shared_ptr<OutputWatcher> watcher;
  };
  std::vector<Watch> watchers_;
  bool retracting_ = false;  // sending retraction records: not remembered themselves
};

}  // namespace cwf
