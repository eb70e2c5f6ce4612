// eca_rules: an EVE server. Detects composite events over the occurrences it receives, fires the
// ECA rules of a rules file after each detection cycle, raises their events and notifies the
// assigned brokers; every occurrence goes to the `history` output.
#pragma once

#include "actors/eca/rule_engine.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

class RulesActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "event occurrences"}},
      {{"notify", "requests sent to their assigned broker"},
       {"history", "every occurrence processed, raised or detected"}}};
  RulesActor(RuleSet rules, std::string name);
  void fire(FiringContext& context) override;

  // The rule engine's state (RuleEngine::save).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override;
  void restore_state(SnapshotReader& in, ActorContext&) override;

 private:
  RuleEngine engine_;
};

ActorType rules_actor_type();

}  // namespace cwf::eca
