// nats_dispatch: instance dispatching over NATS (seed 000 ch. 6): each workflow instance's
// events go to exactly one engine replica, in order. A plain queue group balances per message,
// which would scatter an instance over the replicas; instead, for an instance it has not seen,
// the dispatcher sends a claim request to the dispatch group's claim subject, where the replicas
// (nats_subscribe with `replica` + `dispatch_group`) listen as one queue group, so exactly one
// of them answers with its name. From then on the dispatcher publishes that instance's events
// to `<prefix>.<group>.replica.<name>`. The claim is made before the instance's first event is
// published, on the dispatcher's one connection, so the hand-over is atomic (one owner, decided
// once) and in order (NATS keeps one connection's order to one subscriber).
//
// The claim never holds a worker: the request goes out with a reply subject of the actor's own
// (one subscription for all its claims), the instance's records wait in the actor meanwhile, and
// the reply, delivered on cnats' thread, wakes the actor (ExternalWake), which then publishes
// them in order. Records of instances with an owner go on at once, so instances overtake each
// other while one is being claimed; each instance's own order is kept. Unanswered, a claim is
// asked again every second (50 ms after "no responders") until claim_timeout, on the workflow
// clock, which must be real; the input of the run does not end while a claim is out
// (FiringContext::await_outside).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

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
  void wrapup(ActorContext& context) override;

  // Instances handed to a replica so far (read by the dispatcher's thread only, or after a run).
  const std::unordered_map<std::string, std::string>& owners() const { return owners_; }
  // Instances being claimed (the dispatcher's thread, or after a run).
  std::size_t claims_open() const { return claims_.size(); }

  // What a claim's reply says, from cnats' delivery thread to the actor's firings.
  struct Reply {
    std::uint64_t attempt = 0;   // the request it answers
    std::string replica;         // its name; empty: no answer of a replica
    bool no_responders = false;  // no replica listens (yet)
  };
  struct Replies {
    std::mutex mutex;
    std::vector<Reply> items;
    ExternalWake waker;
  };

 private:
  struct Claim {
    Value id;                   // the instance id, as its records give it
    std::deque<Value> waiting;  // its records, in order, until a replica takes it
    std::uint64_t attempt = 0;  // the request in flight
    Timestamp retry_at = 0;     // ask again then, unless answered
    Timestamp deadline = 0;     // claim_timeout after its first record: then its records fail
  };

  // Sends the claim request (a new attempt) and asks to be fired when it is due again.
  void ask(FiringContext& context, const std::string& instance, Claim& claim, Timestamp now);
  void take_replies(FiringContext& context);
  void retry_or_fail(FiringContext& context);

  Expression instance_;
  std::string group_, prefix_;
  std::string claim_subject_;  // where the group's replicas answer claims
  Duration claim_timeout_;
  std::unordered_map<std::string, std::string> owners_;      // instance key -> replica subject
  std::map<std::string, Claim> claims_;                      // instance key -> claim in progress
  std::unordered_map<std::uint64_t, std::string> attempts_;  // request -> instance key
  std::uint64_t next_attempt_ = 0;
  std::string reply_prefix_;  // the actor's inbox: replies come to <prefix>.<attempt>
  natsSubscription* replies_subscription_ = nullptr;
  std::shared_ptr<Replies> replies_;
  std::string key_;  // scratch
};

ActorType nats_dispatch_type();

}  // namespace cwf::pubsub
