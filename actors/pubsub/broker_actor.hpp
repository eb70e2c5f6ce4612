// broker: a content-based publish/subscribe broker (broker.hpp) as an actor. Clients' operations
// arrive on `subscribe`, `unsubscribe`, `advertise`, `unadvertise`, `publish` (or on `ops`, with
// an `op` field); each matching publication leaves on `deliveries` as {subscriber, publication},
// once per subscriber, in the order the publications arrived. With `neighbours`, the broker is a
// node of an acyclic overlay: it reads the others' messages on `peers` and writes to each
// neighbour on `to_<name>`; messages carry the sender's name, so nothing is sent back where it
// came from.
#pragma once

#include <string>
#include <vector>

#include "actors/pubsub/broker.hpp"
#include "actors/pubsub/broker_messages.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::pubsub {

class BrokerActor final : public Actor {
 public:
  static inline const PortSpec kToNeighbour{"to_<neighbour>", "messages to that neighbour broker"};
  static inline const ActorPorts kPorts{
      {{"subscribe", "{subscriber, id?, filter}"},
       {"unsubscribe", "{subscriber, id?}"},
       {"advertise", "{publisher, id?, filter}"},
       {"unadvertise", "{publisher, id?}"},
       {"publish", "publications (records)"},
       {"ops",
        "any of the above as {op: subscribe|unsubscribe|advertise|unadvertise|publish, "
        "...} (publish: {op: publish, publication: {...}})"},
       {"peers", "messages from neighbour brokers"}},
      {{"deliveries", "{subscriber, publication}, once per subscriber and publication"},
       {"rejected", "publications no advertisement of this broker promised"},
       kToNeighbour}};
  explicit BrokerActor(std::vector<std::string> neighbours);
  // Subscriptions and advertisements the broker starts with (id ""); only without neighbours,
  // where they route nowhere.
  void preset(const std::vector<std::pair<std::string, Filter>>& subscriptions,
              const std::vector<std::pair<std::string, Filter>>& advertisements);
  void fire(FiringContext& context) override;
  // Its routing tables (Broker::save); the preset ones are in them.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  void handle(FiringContext& context, const Value& token);
  void apply(FiringContext& context, const ClientOperation& op);
  void flush(FiringContext& context);

  Broker broker_;
  std::vector<std::string> neighbours_;
  std::vector<int> neighbour_ports_;
  int subscribe_, unsubscribe_, advertise_, unadvertise_, publish_, ops_, peers_;
  int deliveries_, rejected_;
  BrokerOutput out_;
};

ActorType broker_type();

}  // namespace cwf::pubsub
