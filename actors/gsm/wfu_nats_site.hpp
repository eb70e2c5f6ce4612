// One site of a model's workflow units split over two places that share only a NATS server: the
// site runs its own units around its own Broker core, and the units of the other site appear in
// that broker as one client, `remote`, holding their subscriptions and advertisements. A local
// publication a remote unit subscribed to is sent once, as JSON, on the peer's subject
// (<prefix>.<peer>); what arrives on <prefix>.<site> is published into the local broker for the
// local units only (it already reached the peer's own). NATS keeps one connection's messages in
// order, so each link stays FIFO; the units need nothing more (wfu_rule_unit.hpp).
//
// Nothing in a site refers to the other's memory: the two sites may live in two processes. The
// site is driven by its owner's thread (pump); NATS delivers into a queue on its own thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "actors/gsm/wfu_sink.hpp"
#include "actors/gsm/wfu_source.hpp"
#include "actors/gsm/wfu_unit.hpp"
#include "actors/pubsub/broker.hpp"
#include "actors/pubsub/nats_connection.hpp"

namespace cwf::gsm {

class WfuNatsSite {
 public:
  // `local`: the units placed here (the source among them if this site takes the events).
  WfuNatsSite(std::shared_ptr<const WfuPlan> plan, std::vector<int> local,
              const pubsub::NatsConnectionOptions& options, const std::string& prefix,
              const std::string& site, const std::string& peer);
  ~WfuNatsSite();
  WfuNatsSite(const WfuNatsSite&) = delete;
  WfuNatsSite& operator=(const WfuNatsSite&) = delete;

  // Only at the site holding the source.
  std::int64_t submit(std::int64_t instance, int event, std::span<const DataUpdate> data);
  // Publishes what arrived from the peer and delivers everything that follows locally;
  // returns the number of local deliveries made.
  std::size_t pump();
  std::vector<StepCompletion> take_completions();
  std::uint64_t sent() const { return sent_; }
  std::uint64_t received() const { return received_; }
  // Waits until the NATS server has everything sent so far.
  bool flush();

  struct Inbox;

 private:
  void publish(const Value& publication, bool from_peer);

  std::shared_ptr<const WfuPlan> plan_;
  std::vector<bool> local_;
  pubsub::Broker broker_;
  pubsub::BrokerOutput out_;
  std::unique_ptr<WfuSource> source_;
  std::vector<std::unique_ptr<WfuUnit>> units_;
  std::vector<WfuSink*> sinks_;
  std::deque<std::pair<int, Value>> deliveries_;
  pubsub::NatsConnection connection_;
  std::shared_ptr<Inbox> inbox_;
  natsSubscription* subscription_ = nullptr;
  std::string peer_subject_;
  std::string payload_;
  std::uint64_t sent_ = 0, received_ = 0;
};

}  // namespace cwf::gsm
