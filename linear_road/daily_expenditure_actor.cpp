#include "linear_road/daily_expenditure_actor.hpp"

#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"

namespace cwf::lr {

DailyExpenditureActor::DailyExpenditureActor(std::string tolls, std::int32_t copies,
                                             std::int32_t replica_cars, std::int32_t replica_xways)
    : Actor(kPorts),
      tolls_path_(std::move(tolls)),
      copies_(copies),
      replica_cars_(replica_cars),
      replica_xways_(replica_xways) {}

void DailyExpenditureActor::initialize(ActorContext& context) {
  history_ = HistoricalTollTable();
  history_.replicate(replica_cars_, replica_xways_, copies_);
  if (tolls_path_.empty()) return;
  HistoricalTollTable::LoadResult loaded = history_.load(tolls_path_);
  if (!loaded.opened || !loaded.error.empty())
    throw std::runtime_error(context.name() + ": cannot read historical tolls '" + tolls_path_ +
                             "': " + loaded.error);
  if (loaded.malformed > 0)
    context.report_error(tolls_path_ + ": " + std::to_string(loaded.malformed) +
                         " malformed historical toll rows skipped");
}

void DailyExpenditureActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    const Value& tuple = event.token;
    if (!is_tuple_else_report(tuple, context)) continue;
    auto s = tuple.slots();
    auto field = [&](int slot) { return static_cast<std::int32_t>(s[slot].as_int()); };
    if (field(kTupleType) != static_cast<std::int32_t>(InputType::daily_expenditure)) continue;
    const std::int32_t time = field(kTupleTime);
    std::int64_t toll =
        history_.lookup(field(kTupleCarid), field(kTupleDay), field(kTupleXway)).value_or(0);
    context.emit(make_answer(ExpenditureAnswer{time, time, field(kTupleQid), toll},
                             s[kTupleReleased].as_int()));
  }
}

ActorType daily_expenditure_actor_type() {
  return actors::make_type(
      "lr_daily_expenditure",
      "Linear Road daily-expenditure queries (type 3) answered from the historical tolls.",
      {{"tolls", ParamType::string, Value(""),
        "historical tolls file (carid,day,xway,toll; .xz read decompressed), relative to the "
        "workflow file's folder; empty: none, every answer is 0"},
       {"xways", ParamType::integer, Value(1),
        "L > 1: the input is replicated for L expressways (lr_source's `xways`); queries of copy "
        "i are answered from the original rows"},
       {"replica_cars", ParamType::integer, Value(0),
        "C of the replication (lr_source's replica_cars); required when xways > 1"},
       {"replica_xways", ParamType::integer, Value(0),
        "X of the replication (lr_source's replica_xways); required when xways > 1"}},
      DailyExpenditureActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string tolls = params.get_string("tolls");
        if (!tolls.empty()) {
          tolls = params.path("tolls");
          std::error_code error;
          if (!std::filesystem::is_regular_file(tolls, error))
            params.input_missing("tolls", "no such file '" + tolls + "'");
        }
        std::int64_t xways = params.get_int("xways");
        if (xways < 1 || xways > 100'000) throw ParamError("xways", "must be 1..100000");
        std::int64_t cars = params.get_int("replica_cars");
        std::int64_t replica_xways = params.get_int("replica_xways");
        if (xways > 1 &&
            (cars < 1 || cars > (1 << 30) || replica_xways < 1 || replica_xways > (1 << 30)))
          throw ParamError("replica_cars",
                           "xways > 1 needs replica_cars and replica_xways (1..2^30)");
        return std::make_unique<DailyExpenditureActor>(
            std::move(tolls), static_cast<std::int32_t>(xways), static_cast<std::int32_t>(cars),
            static_cast<std::int32_t>(replica_xways));
      });
}

}  // namespace cwf::lr
