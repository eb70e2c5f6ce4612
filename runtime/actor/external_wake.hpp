// How code outside the workflow's threads (an I/O event loop, a client library's callback thread)
// tells a source that input arrived for it, so that a source with nothing to read waits without
// polling: it fires, finds its inbox empty, calls FiringContext::await_input() and is not fired
// again until someone calls wake() (or the time it asked for with fire_again_at comes).
//
//   initialize:  waker_ = context.external_wake();        // hand a copy to the I/O thread
//   I/O thread:  inbox.push(item); waker_.wake();           // after the item is in the inbox
//   fire:        drain the inbox; if it was empty: context.await_input();
//
// A wake between the drain and the source going back to idle is not lost: the source runs again.
// wake() may be called from any thread at any time: before the run starts and after it ended it
// does nothing (the run's first firing reads what arrived before; what arrives after the end is
// the source's to report).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

namespace cwf {

class ActorCell;

class ExternalWake {
 public:
  ExternalWake() = default;  // wakes nothing

  // Any thread: the source is fired again soon.
  void wake() const;

  // The shared part, between the cell (which arms it while the run goes on) and the handles.
  struct State {
    std::mutex mutex;
    ActorCell* cell = nullptr;  // set while the run goes on (under mutex)
    std::atomic<bool> woken{false};
  };
  explicit ExternalWake(std::shared_ptr<State> state) : state_(std::move(state)) {}

 private:
  std::shared_ptr<State> state_;
};

}  // namespace cwf
