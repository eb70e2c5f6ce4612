// event_guard: the actor of one event type (Singh §4.3). It holds the current guards of its
// event x and of ~x, per workflow instance (one per binding of the event's parameters), and
// decides attempts: accepted when the guard holds, parked otherwise, rejected (~x happens) when
// the guard of x can no longer hold, triggered when another event needs it and it is
// triggerable. When x or ~x happens it announces □x / □~x on `messages`; announcements from
// the other events simplify its guards and release a parked attempt whose guard now holds.
//
// Messages between event actors (records on `messages`):
//   {kind: "happened", literal: "~e", binding}        □~e
//   {kind: "promised", literal: "e", for: "f", binding} ◇e, for f's guard only: e is parked and
//       will happen as soon as f does (the conditional promise that resolves mutual waits)
//   {kind: "trigger", literal: "s_book", binding}      please make s_book happen
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/guards/dependency_file.hpp"
#include "actors/guards/guard.hpp"
#include "runtime/actor/actor.hpp"

namespace cwf::guards {

class EventGuard final : public Actor {
 public:
  EventGuard(const DependencySet& workflow, const std::string& event_type);

  void fire(FiringContext& context) override;

  // Checkpoints (event_guard_snapshot.cpp): every undecided instance (its guards as
  // announcements left them, the parked attempt, the help already asked for) and every decided
  // one.
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  const Guard& guard_template(bool complement) const { return complement ? negative_ : positive_; }

  // Instances whose event is undecided (guards held) and decided (a marker each).
  std::size_t undecided_instances() const { return instances_.size(); }
  std::size_t decided_instances() const { return decided_.size(); }

 private:
  // The state of an instance whose event is still undecided. Once x or ~x happened its guards
  // can no longer matter, so the instance shrinks to an entry of `decided_`.
  struct Instance {
    Guard positive, negative;
    std::optional<bool> parked;  // the parked attempt: false for x, true for ~x
    bool trigger_wanted = false;
    Value binding;
    // Triggers and promises already sent for the parked attempt ("kind literal for"): they are
    // re-derived whenever announcements change the guard, and must not be sent twice.
    std::set<std::string> requested;
  };

  Instance& instance(const Value& binding);
  Guard& guard(Instance& instance, bool complement) {
    return complement ? instance.negative : instance.positive;
  }
  Literal literal(bool complement) const { return Literal{event_type_, complement}; }

  void attempt(FiringContext& context, const Value& binding, bool complement);
  void decide(FiringContext& context, Instance& instance, bool complement, bool first_time);
  void ask_for_help(FiringContext& context, Instance& instance, bool complement);
  void on_message(FiringContext& context, const Value& message);
  void retry(FiringContext& context, Instance& instance);
  void happen(FiringContext& context, Instance& instance, bool complement, const char* how);
  void emit_outcome(FiringContext& context, const Value& binding, bool complement, const char* how);
  void send(FiringContext& context, const char* kind, const Literal& literal,
            const std::string& for_literal, const Value& binding);
  void request(FiringContext& context, Instance& instance, const char* kind, const Literal& literal,
               const std::string& for_literal);

  std::string event_type_;
  std::string base_;
  std::vector<std::string> parameters_;
  EventAttributes attributes_;
  std::vector<std::string> triggerable_;  // other triggerable event types this one may need
  Guard positive_, negative_;
  // Interned once: an attempt's binding (null without parameters) and an outcome record.
  const Schema* binding_schema_;
  const Schema* outcome_schema_;
  std::map<Value, Instance> instances_;  // undecided, by binding
  // Decided instances, by binding: whether ~x (rather than x) happened. Kept so that a later
  // attempt is reported as a duplicate or refused rather than starting over; a small entry per
  // binding instead of two guards.
  std::map<Value, bool> decided_;
  int attempts_port_, messages_port_;
  int outcomes_out_, messages_out_;
};

}  // namespace cwf::guards
