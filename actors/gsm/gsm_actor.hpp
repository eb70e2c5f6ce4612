// gsm: the centralized B-step engine as an actor. Each incoming record is one external event for
// one artifact instance (instance id, event type, data); the actor runs its B-step and emits what
// the step generated: status changes and task invocations.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/incoming_event.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::gsm {

struct GsmActorOptions {
  Expression instance;  // the instance id of an incoming record
  Expression event;     // its event type
  Expression data;      // its data: a record of data attributes, or null
  bool emit_status = true;
  bool emit_tasks = true;
};

class GsmActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "external events: {instance, type, data}"}},
      {{"out",
        "{instance, step, event, type: status, change: +S | -S:m} and {instance, step, event, "
        "type: invoke, task, stage}"}}};
  GsmActor(std::shared_ptr<const CompiledModel> model, GsmActorOptions options);
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  const BStepEngine& engine() const { return engine_; }

 private:
  void process(FiringContext& context, const Value& token);

  GsmActorOptions options_;
  BStepEngine engine_;
  IncomingEventReader reader_;  // the checks gsm_pubsub makes too
  IncomingEvent incoming_;      // the record being processed, reused
  std::unordered_map<Value, InstanceId, ValueHash> instances_;
  std::vector<Value> instance_ids_;    // by InstanceId, for the output records
  std::vector<Value> event_names_;     // by event index
  std::vector<Value> status_changes_;  // "+RA", "-RA" per pdg node
  std::vector<Generated> generated_;
  std::uint64_t step_ = 0;
  const Schema* status_schema_;
  const Schema* invoke_schema_;
};

ActorType gsm_actor_type();

}  // namespace cwf::gsm
