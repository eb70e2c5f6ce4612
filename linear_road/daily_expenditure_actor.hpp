// lr_daily_expenditure: answers type-3 queries from the historical tolls (HistoricalTollTable,
// loaded once at initialize from `tolls`); a query without a historical row is answered with 0,
// as the reference does. Other tuples are ignored.
#pragma once

#include <string>

#include "linear_road/historical_toll_table.hpp"
#include "runtime/actor.hpp"
#include "runtime/actor_registry.hpp"

namespace cwf::lr {

class DailyExpenditureActor final : public Actor {
 public:
  // `tolls` empty: no historical tolls (every answer is 0).
  explicit DailyExpenditureActor(std::string tolls);
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;

 private:
  std::string tolls_path_;
  HistoricalTollTable history_;
};

ActorType daily_expenditure_actor_type();

}  // namespace cwf::lr
