// eca_broker: a simulated processing entity (EVE broker). Answers each request assigned to it
// with a reply RPL(Service.Outcome) (or an exception) after a simulated delay: the reply's
// timestamp is the request's plus the delay, so the workflow clock never waits.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <string>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

struct ServiceBehaviour {
  std::string reply = "Done";
  Duration delay = 0;
  std::optional<Expression> params;        // of the reply; `/` is the request; default /params
  std::optional<Expression> exception_if;  // when true: EXC(Service.<exception>) instead
  std::string exception = "Failed";
};

class BrokerActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "requests (those assigned to this broker are answered)"}},
      {{"out", "replies and exceptions"}}};
  BrokerActor(std::string name, std::string site, std::map<std::string, ServiceBehaviour> services);
  void fire(FiringContext& context) override;

  // The site's next occurrence id (site_ids_snapshot.hpp); the services are parameters.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override;
  void restore_state(SnapshotReader& in, ActorContext&) override;

 private:
  std::string name_;
  std::string site_;
  std::map<std::string, ServiceBehaviour, std::less<>> services_;
  std::atomic<std::int64_t>* ids_;
};

ActorType broker_actor_type();

}  // namespace cwf::eca
