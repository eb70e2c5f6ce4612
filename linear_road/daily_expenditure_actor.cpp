#include "linear_road/daily_expenditure_actor.hpp"

#include <filesystem>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"

namespace cwf::lr {

DailyExpenditureActor::DailyExpenditureActor(std::string tolls) : tolls_path_(std::move(tolls)) {
  add_input("in", "daily-expenditure queries (tuple records of type 3)");
  add_output("out", "daily-expenditure answers");
}

void DailyExpenditureActor::initialize(ActorContext& context) {
  history_ = HistoricalTollTable();
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
    if (!tuple.is_record() || tuple.schema() != tuple_schema()) {
      context.report_error("not a Linear Road tuple: " + tuple.to_json());
      continue;
    }
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
        "workflow file's folder; empty: none, every answer is 0"}},
      {{"in", "tuple records; those of type 3 are answered"}},
      {{"out", "answer records of type 3"}}, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string tolls = params.get_string("tolls");
        if (!tolls.empty()) {
          tolls = params.resolve_path(tolls);
          std::error_code error;
          if (!std::filesystem::is_regular_file(tolls, error))
            throw ParamError("tolls", "no such file '" + tolls + "'");
        }
        return std::make_unique<DailyExpenditureActor>(std::move(tolls));
      });
}

}  // namespace cwf::lr
