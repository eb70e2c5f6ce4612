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

#include <memory>
#include <optional>
#include <string>

#include "runtime/actor/event.hpp"

namespace cwf {

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

}  // namespace cwf
