// workflow_view: a source fed by a live view (CWP5) of a connection of another workflow hosted
// by the same `cwf serve` (seed 002 l.519: the data extracted from a running workflow goes out
// "as a stream" for monitoring "or for another workflow"). It emits the value of each event the
// view shows, in the order the viewed connection carried them.
//
// The actor knows nothing of the server: the host hands it a connector (connect_with) that opens
// the view. Until the viewed workflow is registered and running, the source waits and tries
// again; when that workflow's run ends (stopped, restarted), it opens the view again once the
// workflow runs again. Outside a server (cwf run) there is nothing to view: the run fails at the
// start, saying so.
//
// A view never holds the viewed workflow up: what this workflow does not take in time is dropped
// by the view (its bounded buffer) and counted here as dropped; so is what is left in the view
// when this run ends. Events are stamped with the time they reach this workflow.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

// The view a workflow_view source reads, as its parameters name it.
struct ViewAddress {
  std::string workflow;  // the viewed workflow's registered name (the `of` parameter)
  std::string from, to;  // the connection: "actor" or "actor.port" at each end
  std::string where;     // the predicate; empty: every event
};

// An open view, provided by the host.
class ViewFeed {
 public:
  struct Batch {
    std::vector<Value> values;  // oldest first
    std::uint64_t dropped = 0;  // dropped by the view since the last batch
    bool ended = false;         // the viewed workflow's run has ended: nothing more will come
  };
  virtual ~ViewFeed() = default;
  virtual Batch take() = 0;
  // The source is done with it: the view is closed.
  virtual void close() = 0;
};

// Opens the view `address` names. Returns null while it cannot be opened yet (the workflow is not
// registered, or not running); throws std::runtime_error, with the reason, for one that cannot be
// opened as asked (no such connection, a predicate that does not compile).
using ViewConnector = std::function<std::shared_ptr<ViewFeed>(const ViewAddress&)>;

class WorkflowViewSource final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {}, {{"out", "the value of each event the view shows, in the order they flowed"}}};

  WorkflowViewSource(ViewAddress address, Duration poll);

  const ViewAddress& address() const { return address_; }
  // By the host, before the run starts.
  void connect_with(ViewConnector connector) { connector_ = std::move(connector); }

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  // It holds nothing a checkpoint needs: a resumed run opens the view again.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  ViewAddress address_;
  Duration poll_;
  ViewConnector connector_;
  std::shared_ptr<ViewFeed> feed_;
  std::string last_refusal_;  // reported once, not at every try
};

ActorType workflow_view_type();

}  // namespace cwf::actors
