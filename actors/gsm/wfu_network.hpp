// A model's workflow units wired through one content-based Broker (actors/pubsub/broker.hpp) in
// one thread: every unit subscribes and advertises with its filters, every publication goes
// through the broker, and each delivery waits in the link from its publisher to its subscriber.
// Links are FIFO; which link delivers next is chosen at random (seeded), so steps of several
// instances, and the units of one step, interleave in any order a network could produce. With
// seed 0 deliveries go in one global FIFO order instead (the cheapest schedule, for benchmarks).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "actors/gsm/wfu_sink.hpp"
#include "actors/gsm/wfu_source.hpp"
#include "actors/gsm/wfu_unit.hpp"
#include "actors/pubsub/broker.hpp"

namespace cwf::gsm {

class WfuNetwork {
 public:
  WfuNetwork(std::shared_ptr<const WfuPlan> plan, unsigned seed);

  const WfuPlan& plan() const { return *plan_; }
  // Publishes step (event, t, instance) at the source; returns t. Nothing is delivered yet.
  std::int64_t submit(std::int64_t instance, int event, std::span<const DataUpdate> data);
  // Delivers one publication; false when nothing is in flight.
  bool deliver_one();
  void run() {
    while (deliver_one()) {
    }
  }
  bool in_flight() const { return in_flight_ > 0; }

  // Steps the sinks completed since the last call, in completion order.
  std::vector<StepCompletion> take_completions();
  // Rows some unit received and has not visited (0 once every submitted step completed).
  std::size_t pending_rows() const;
  // Two toggles of one attribute in one step, over every gateway (toggle-once: always 0).
  std::uint64_t double_toggles() const;
  std::uint64_t condition_errors() const;

  std::uint64_t publications() const { return publications_; }  // by the source and the units
  std::uint64_t deliveries() const { return deliveries_; }      // broker to subscriber
  std::uint64_t completed() const;

 private:
  void publish(int sender, const Value& publication);

  std::shared_ptr<const WfuPlan> plan_;
  pubsub::Broker broker_;
  pubsub::BrokerOutput out_;
  WfuSource source_;
  std::vector<std::unique_ptr<WfuUnit>> units_;  // by unit index; the source's is null
  std::vector<WfuSink*> sinks_;
  // Links sender * units + receiver; `active_` lists the non-empty ones (random schedule).
  std::vector<std::deque<Value>> links_;
  std::vector<int> active_;
  std::vector<int> active_position_;
  std::deque<std::pair<int, Value>> fifo_;  // seed 0: (receiver, publication)
  bool random_schedule_;
  std::mt19937 random_;
  std::size_t in_flight_ = 0;
  std::vector<Value> scratch_;  // what the source or one unit published, reused
  std::uint64_t publications_ = 0;
  std::uint64_t deliveries_ = 0;
};

}  // namespace cwf::gsm
