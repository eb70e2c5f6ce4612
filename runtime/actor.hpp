// The actor API. An actor declares its ports in its constructor and implements the Kepler-style
// lifecycle: initialize once, then per window prefire (may I fire?), fire (read the window, emit
// tokens), postfire (post-condition: keep going?), end_of_input once no input can come, and
// wrapup once at the end.
//
// Plain actors only read tokens and emit tokens: the runtime's time keeper stamps every output
// with the timestamp and a child wave tag of the window being processed. Time- and wave-aware
// actors read `time()` / `wave()` and may set them (see FiringContext).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor_context.hpp"
#include "runtime/case_cancellation.hpp"
#include "runtime/port.hpp"

namespace cwf {

class Actor {
 public:
  virtual ~Actor() = default;

  std::span<const PortSpec> inputs() const { return inputs_; }
  std::span<const PortSpec> outputs() const { return outputs_; }
  int input_index(std::string_view name) const;
  int output_index(std::string_view name) const;
  // Sources have no inputs; the director fires them to bring events in.
  bool is_source() const { return inputs_.empty(); }

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
  // on, and what it emits belongs to no wave. Not called inside a sub-workflow (whose input goes
  // on with the outer workflow's), nor on or after a cycle of connections.
  virtual void end_of_input(FiringContext&) {}
  // A case was cancelled (CWP4, see runtime/case_cancellation.hpp) and this actor is in the
  // cancellation's scope: forget what it keeps of the case (counts, held events, partial
  // results) and, if that changes what it reported, emit the correction. The engine has already
  // removed the case's events from this actor's queues and windows, and emits the retraction
  // records of remembered outputs itself. Called between two firings on the actor's own thread;
  // the firing has no window (port() is -1). The default keeps nothing per case: it does nothing.
  virtual void retract(const CaseId& /*cancelled*/, FiringContext&) {}
  virtual void wrapup(ActorContext&) {}

 protected:
  int add_input(std::string name, std::string doc = {});
  int add_output(std::string name, std::string doc = {});

 private:
  std::vector<PortSpec> inputs_;
  std::vector<PortSpec> outputs_;
};

}  // namespace cwf
