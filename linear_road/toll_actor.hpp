// lr_toll: toll notifications, accident alerts, charging and account balances.
//  - a report entering a segment (not by the exit lane) is notified: an accident alert first
//    when an accident is in force ahead, then `0,...` with the LAV and the toll (segment_toll);
//  - the toll notified for a segment is charged when the car enters another segment (the exit
//    ramp of the next one included); a car leaving by the exit lane of the tolled segment, or
//    re-entering later as a new trip, is not charged for it;
//  - a balance query is answered with everything charged so far. Queries come in the same chain
//    as the reports, after the report of their second, so the balance includes its charge.
// Replicated (`parallelism: N`, each replica with the reports of its expressways and every
// balance query: workflows/linear_road_partitioned.yaml), a replica holds only what was charged
// on its expressways, and a car may have driven on several: it answers a query with that part,
// on `balances`, and lr_balance_sum adds up the N parts of each query.
#pragma once

#include <cstdint>

#include "linear_road/car_table.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class TollActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "reports entering a segment and balance queries, in input order"}},
      {{"out", "answer records: toll (type 0), alert (1), balance (2) when not replicated"},
       {"balances",
        "when replicated: this replica's part of each balance (lr_balance_sum adds "
        "them up)"}}};
  static constexpr int kBalancesPort = 1;
  TollActor();
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  struct Account {
    // Notified for the current segment. 64 bits, as the balance: a checkpoint writes accounts as
    // their bytes, and a record without padding has no indeterminate ones.
    std::int64_t pending_toll = 0;
    std::int64_t balance = 0;  // charged so far
  };

  CarTable<Account> accounts_;
};

ActorType toll_actor_type();

}  // namespace cwf::lr
