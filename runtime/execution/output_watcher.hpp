// Something that sees what an actor sends on one of its output ports while the workflow runs:
// a live view of a connection (CWP5, docs/server.md). Attached to and detached from a running
// cell from any thread (ActorCell::watch); while none is attached, sending costs nothing more.
#pragma once

#include "runtime/actor/event.hpp"

namespace cwf {

class OutputWatcher {
 public:
  virtual ~OutputWatcher() = default;
  // Each event the actor sends on the watched port (not wave punctuations), on the thread that
  // fires the actor, inside its firing: it must be quick and must not block or throw (copy what
  // is wanted and hand it on).
  virtual void seen(const Event& event) noexcept = 0;
};

}  // namespace cwf
