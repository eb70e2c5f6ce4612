// lr_daily_expenditure: answers type-3 queries from the historical tolls (HistoricalTollTable,
// loaded once at initialize from `tolls`); a query without a historical row is answered with 0,
// as the reference does. Other tuples are ignored. With `xways` L > 1 the table answers for an
// input replicated L times (linear_road/replication.hpp): a query of copy i is looked up in the
// original row (HistoricalTollTable::replicate).
#pragma once

#include <string>

#include "linear_road/historical_toll_table.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class DailyExpenditureActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "tuple records; those of type 3 are answered"}},
                                        {{"out", "answer records of type 3"}}};
  // `tolls` empty: no historical tolls (every answer is 0).
  explicit DailyExpenditureActor(std::string tolls, std::int32_t copies = 1,
                                 std::int32_t replica_cars = 0, std::int32_t replica_xways = 0);
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  // The historical tolls are read again at initialize; answering changes nothing.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  std::string tolls_path_;
  std::int32_t copies_;
  std::int32_t replica_cars_;
  std::int32_t replica_xways_;
  HistoricalTollTable history_;
};

ActorType daily_expenditure_actor_type();

}  // namespace cwf::lr
