// Case cancellation (pattern CWP4): an event upstream cancels a case whose events have already
// been propagated downstream. A case is either a wave (the external event at its root and every
// event descending from it) or a key (the value an expression such as /order gives on an event).
//
// The cancel actor declares, before the run starts, which actors a cancellation reaches (its
// scope) and which of them retract their outputs; while firing it cancels cases. The engine then,
// in each actor of the scope, on the thread that runs it and between two firings:
//   - removes the case's events from its input queues and windows (no window fires on them);
//   - drops the case's events that reach it later (late arrivals);
//   - calls Actor::retract, so that an actor with state of its own forgets the case;
//   - emits a retraction record {"retracted": <token>} for each output it remembers having
//     produced for the case (actors named in `retract` remember their last `remember` outputs).
// An actor applies a cancellation after draining its inputs and before firing again, so an event
// that was sent after the cancellation (anything the cancel firing caused, including wave
// punctuations) is never fired on. Cancelled events are counted per actor (ActorStats::cancelled),
// not as problems: a run whose events were cancelled on purpose is complete.
//
// A removed event still counts as a leaf of its wave: it becomes a punctuation, so that wave
// windows downstream still learn when the wave is complete.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/event.hpp"

namespace cwf {

class ActorCell;
class Expression;

// What a cancellation names.
struct CaseId {
  // A wave case: the wave with this root.
  std::optional<WaveRoot> wave;
  // A key case: the events on which `match` evaluates to `key` (null never matches).
  Value key;
  std::shared_ptr<const Expression> match;

  // Whether `event` (data, not a punctuation) belongs to the case.
  bool matches(const Event& event) const;
  // "wave 5#2" or "key 2", for messages.
  std::string describe() const;
};

// Which actors a cancel actor reaches: declared once, before the run.
struct CancellationScope {
  std::vector<bool> reaches;   // by actor id: queues, windows and Actor::retract
  std::vector<bool> retracts;  // by actor id: remembered outputs get retraction records
};

// The cancellations of one running workflow. Cancel actors add; every actor in a scope applies
// the ones it has not seen yet at its next run. Cancellations are kept for the whole run (one
// small record each), so that a case's events that arrive late are dropped too.
class CaseCancellations {
 public:
  struct Entry {
    CaseId what;
    std::size_t scope;
  };

  explicit CaseCancellations(std::vector<ActorCell*> cells) : cells_(std::move(cells)) {}

  // Before the run: the actors named (by name; throws std::invalid_argument for an unknown one)
  // as reached, and those that retract their outputs (also reached), remembering `remember`
  // outputs each. Returns the scope's number.
  std::size_t declare_scope(const std::vector<std::string>& reaches,
                            const std::vector<std::string>& retracts, std::size_t remember);
  // Any thread: cancels `what` in scope `scope` and wakes every actor the scope reaches.
  void cancel(CaseId what, std::size_t scope);

  // How many cancellations there are (acquire: the entries before it are visible).
  std::size_t count() const { return count_.load(std::memory_order_acquire); }
  // The i-th cancellation (i < count()); stable for the run.
  const Entry& entry(std::size_t i) const;
  const CancellationScope& scope(std::size_t i) const { return scopes_[i]; }

 private:
  std::vector<ActorCell*> cells_;  // by actor id
  std::vector<CancellationScope> scopes_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::atomic<std::size_t> count_{0};
};

}  // namespace cwf
