#include "linear_road/toll_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "linear_road/toll_rule.hpp"
#include "linear_road/workflow_events.hpp"

namespace cwf::lr {

TollActor::TollActor() : Actor(kPorts) {}

void TollActor::initialize(ActorContext& context) {
  accounts_ = CarTable<Account>();
  if (replica_count() > 1 && !context.connected(kBalancesPort))
    throw std::runtime_error(
        "actor '" + context.name() +
        "' is one of several replicas and answers balance queries in part: connect its "
        "'balances' output to an lr_balance_sum, which adds the parts up");
}

void TollActor::save_state(SnapshotWriter& out, ActorContext&) {
  accounts_.save(out);
}

void TollActor::restore_state(SnapshotReader& in, ActorContext&) {
  accounts_.restore(in);
}

void TollActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    const Value& tuple = event.token;
    if (!is_tuple_else_report(tuple, context)) continue;
    auto s = tuple.slots();
    auto field = [&](int slot) { return static_cast<std::int32_t>(s[slot].as_int()); };
    const std::int64_t released = s[kTupleReleased].as_int();
    const std::int32_t type = field(kTupleType), time = field(kTupleTime);
    const std::int32_t carid = field(kTupleCarid);
    if (type == static_cast<std::int32_t>(InputType::account_balance)) {
      const Account* account = accounts_.find(carid);
      std::int64_t balance = account ? account->balance : 0;
      BalanceAnswer answer{time, time, time, field(kTupleQid), balance};
      if (replica_count() > 1)
        context.emit(kBalancesPort, make_balance_part(answer, replica_count(), released));
      else
        context.emit(make_answer(answer, released));
      continue;
    }
    if (type != static_cast<std::int32_t>(InputType::position_report)) continue;
    const std::int32_t move = field(kTupleMove);
    if (!(move & kMoveNewSegment)) continue;
    Account& account = accounts_[carid];
    // A new trip: the previous one ended in its last segment, whose toll is not charged.
    if (move & kMoveNewTrip) account.pending_toll = 0;
    account.balance += account.pending_toll;
    account.pending_toll = 0;
    if (field(kTupleLane) == kExitLane) continue;

    const std::int32_t accident_seg = field(kTupleAccidentSeg), lav = field(kTupleLav);
    if (accident_seg >= 0)
      context.emit(make_answer(
          AccidentAlert{time, time, field(kTupleXway), accident_seg, field(kTupleDir), carid},
          released));
    std::int32_t toll =
        segment_toll(field(kTupleCars), lav >= 0 ? std::optional<std::int32_t>(lav) : std::nullopt,
                     accident_seg >= 0);
    // LAV 0 when there is no data (the Perl validator writes -1 there; ValidateMTBQ writes 0).
    context.emit(
        make_answer(TollNotification{carid, time, time, lav >= 0 ? lav : 0, toll}, released));
    account.pending_toll = toll;
  }
}

ActorType toll_actor_type() {
  return actors::make_type(
      "lr_toll",
      "Linear Road toll notifications and accident alerts for cars entering a segment, charging "
      "on leaving it, and account balances.",
      {}, TollActor::kPorts,
      [](const Params&) -> std::unique_ptr<Actor> { return std::make_unique<TollActor>(); });
}

}  // namespace cwf::lr
