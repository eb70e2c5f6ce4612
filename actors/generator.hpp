// generator: a source of `count` synthetic events whose tokens are an expression over the
// sequence number `i` (0, 1, 2, ...), optionally one every `interval` on the workflow clock.
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::actors {

struct GeneratorOptions {
  Expression value;                   // over the variable `i`
  std::optional<std::int64_t> count;  // unset: unbounded
  Duration interval = 0;              // 0: as fast as possible
  std::optional<Timestamp> start_time;
  std::int64_t batch = 64;  // max events per firing
};

class Generator final : public Actor {
 public:
  static inline const ActorPorts kPorts{{}, {{"out", "the generated tokens"}}};
  explicit Generator(GeneratorOptions options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  // The next i and the times the events are stamped from.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  GeneratorOptions options_;
  std::int64_t next_ = 0;
  bool started_ = false;
  Timestamp clock_start_ = 0, time_start_ = 0;
};

ActorType generator_type();

}  // namespace cwf::actors
