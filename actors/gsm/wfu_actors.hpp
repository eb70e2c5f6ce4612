// The workflow units as actors of a sub-workflow: gsm_pubsub is a composite actor built from a
// model and a mapping (BLM or CAM) whose inner workflow has one actor per unit, all talking
// through one `bus` actor that embeds the content-based Broker core (actors/pubsub/broker.hpp)
// with the units' subscriptions and advertisements. Every publication goes unit -> bus -> each
// subscriber, over the inner workflow's FIFO connections; the inner workflow runs under the
// scheduled director with several workers, so units fire in parallel on different threads.
//
// Why a bus and not the `broker` actor: the broker actor takes subscriptions as tokens on its
// ports, so a unit's first publication could overtake a subscription made on another port, and
// its deliveries leave on one port to be dispatched by subscriber name; the bus is that broker
// and that dispatch in one actor, set up before the first event.
//
// Records in: {instance, type: event type name, data: {attribute: value...} or null}.
// Records out (one per completed B-step, from the sinks): {t, instance, event, values}, values a
// record of the attributes whose units took part: status attributes by name (true/false), data
// attributes by name, latestIncEvent.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "actors/gsm/incoming_event.hpp"
#include "actors/gsm/wfu_mapping.hpp"
#include "actors/gsm/wfu_sink.hpp"
#include "actors/gsm/wfu_source.hpp"
#include "actors/pubsub/broker.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/execution/composite_actor.hpp"
#include "runtime/graph/workflow.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::gsm {

// Instance ids as the records name them, numbered for the units (shared by the composite, the
// source and the sinks).
class WfuInstanceNames {
 public:
  std::int64_t number(const Value& id);  // numbers an id not seen yet
  bool contains(const Value& id) const;
  Value id(std::int64_t number) const;
  // Checkpoints: the ids in the order they were numbered.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<Value, std::int64_t, ValueHash> numbers_;
  std::vector<Value> ids_;
};

class WfuSourceActor final : public Actor {
 public:
  WfuSourceActor(std::shared_ptr<const WfuPlan> plan, std::shared_ptr<WfuInstanceNames> names);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  std::shared_ptr<const WfuPlan> plan_;
  std::shared_ptr<WfuInstanceNames> names_;
  IncomingEventReader reader_;
  IncomingEvent incoming_;
  WfuSource source_;
  std::vector<Value> published_;
};

class WfuBusActor final : public Actor {
 public:
  explicit WfuBusActor(std::shared_ptr<const WfuPlan> plan);
  void fire(FiringContext& context) override;
  // Its subscriptions and advertisements are the plan's, made before the first event and never
  // changed: nothing to keep.
  Checkpointing checkpointing() const override { return Checkpointing::none; }
  // The output port delivering to unit `unit` (units other than the source).
  static std::string port_name(int unit) { return "to_" + std::to_string(unit); }

 private:
  pubsub::Broker broker_;
  pubsub::BrokerOutput out_;
  std::vector<int> port_of_unit_;
};

class WfuUnitActor final : public Actor {
 public:
  WfuUnitActor(std::shared_ptr<const WfuPlan> plan, int unit,
               std::shared_ptr<WfuInstanceNames> names);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  std::shared_ptr<const WfuPlan> plan_;
  std::unique_ptr<WfuUnit> unit_;
  WfuSink* sink_ = nullptr;  // when the unit is a sink: completions leave on `steps`
  std::shared_ptr<WfuInstanceNames> names_;
  std::vector<Value> published_;
  int publish_ = 0, steps_ = -1;
  // Sinks only: the schema of a step record, per unit the attribute it owns ("" for rule
  // units), per event type its name.
  const Schema* step_schema_ = nullptr;
  std::vector<std::string> attribute_names_;
  std::vector<Value> event_names_;
};

// gsm_pubsub: the composite whose inner workflow is boundary `events` -> source -> bus <-> units,
// sinks -> boundary `steps`, under the scheduled director with `workers` workers. It checks each
// record before it enters, as the gsm actor does and with the same IncomingEventReader (its
// messages, and an event for an unknown instance that its type may not create), so that a
// rejected record is reported and counted on the actor the workflow names and never becomes a
// step.
class GsmPubsubActor final : public CompositeActor {
 public:
  static inline const ActorPorts kPorts{
      {{"events", "external events: {instance, type, data}"}},
      {{"steps", "{t, instance, event, values: {attribute: value...}} per completed B-step"}}};
  GsmPubsubActor(std::shared_ptr<const WfuPlan> plan, unsigned workers);
  void fire(FiringContext& context) override;
  // The instance ids numbered so far, then the sub-workflow (CompositeActor).
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  GsmPubsubActor(std::shared_ptr<const WfuPlan> plan, unsigned workers,
                 std::shared_ptr<WfuInstanceNames> names);

  std::shared_ptr<WfuInstanceNames> names_;
  IncomingEventReader reader_;
  IncomingEvent incoming_;
};

std::unique_ptr<Actor> make_gsm_pubsub(std::shared_ptr<const WfuPlan> plan, unsigned workers);

ActorType gsm_pubsub_type();

}  // namespace cwf::gsm
