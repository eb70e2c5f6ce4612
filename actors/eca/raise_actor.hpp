// eca_raise: turns any token into an event occurrence (e.g. each claim read from a file into the
// workflow's initiation request REQ(HIC)), stamped with the token's timestamp.
#pragma once

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::eca {

class RaiseActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "any tokens"}},
                                        {{"out", "one occurrence per token"}}};
  RaiseActor(std::string type, Expression instance, Expression params, std::string site,
             std::string broker);
  void fire(FiringContext& context) override;

  // The site's next occurrence id (site_ids_snapshot.hpp).
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext&) override;
  void restore_state(SnapshotReader& in, ActorContext&) override;

 private:
  std::string type_;
  Expression instance_, params_;
  std::string site_, broker_;
  std::atomic<std::int64_t>* ids_;
  // {value: ...}, for params that are not a record: interned once, not per token (interning
  // takes the schema table's lock).
  const Schema* value_schema_;
};

ActorType raise_actor_type();

}  // namespace cwf::eca
