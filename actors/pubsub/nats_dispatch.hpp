// nats_dispatch: instance dispatching over NATS (seed 000 ch. 6): each workflow instance's
// events go to exactly one engine replica, in order. A plain queue group balances per message,
// which would scatter an instance over the replicas; instead, for an instance it has not seen,
// the dispatcher sends a claim request to the dispatch group's claim subject, where the replicas
// (nats_subscribe with `replica` + `dispatch_group`) listen as one queue group, so exactly one
// of them answers with its name. From then on the dispatcher publishes that instance's events
// to `<prefix>.<group>.replica.<name>`. The claim is made before the instance's first event is
// published, on the dispatcher's one connection, so the hand-over is atomic (one owner, decided
// once) and in order (NATS keeps one connection's order to one subscriber).
#pragma once

#include <string>
#include <unordered_map>

#include "actors/pubsub/nats_sink.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::pubsub {

struct NatsDispatchOptions {
  NatsConnectionOptions connection;
  Expression instance;  // the instance id of a record
  std::string group;
  std::string prefix = "cwf.dispatch";
  Duration claim_timeout = 30 * kSecond;  // no replica answering for this long: the event fails
  Duration flush_timeout = 10 * kSecond;
};

class NatsDispatch final : public NatsSink {
 public:
  static inline const ActorPorts kPorts{{{"in", "records of workflow instances, one message each"}},
                                        {}};
  explicit NatsDispatch(NatsDispatchOptions options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;

  // Instances handed to a replica so far (read by the dispatcher's thread only, or after a run).
  const std::unordered_map<std::string, std::string>& owners() const { return owners_; }

 private:
  // The replica subject of the replica that took `instance`, or "" with `error` set.
  std::string claim(const std::string& instance, const Value& id, std::string& error);

  Expression instance_;
  std::string group_, prefix_;
  std::string claim_subject_;  // where the group's replicas answer claims
  Duration claim_timeout_;
  std::unordered_map<std::string, std::string> owners_;  // instance key -> replica subject
  std::string key_;                                      // scratch
};

ActorType nats_dispatch_type();

}  // namespace cwf::pubsub
