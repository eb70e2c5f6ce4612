#include "actors/join.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

namespace {

const ExprEnvironment& join_environment() {
  static const ExprEnvironment env{"left", "right"};
  return env;
}

}  // namespace

Join::Join(Match match, std::optional<Expression> on, Expression emit)
    : match_(match), on_(std::move(on)), emit_(std::move(emit)) {
  add_input("left", "windows of the left stream");
  add_input("right", "windows of the right stream");
  add_output("out", "the value of `emit` for each joined pair");
}

void Join::join(FiringContext& context, int side, const std::vector<Value>& mine,
                const std::vector<Value>& theirs) {
  Value vars[2];
  for (const Value& token : mine) {
    for (const Value& other : theirs) {
      vars[side] = token;
      vars[1 - side] = other;
      try {
        if (on_ && !on_->matches(token, Variables(vars, 2))) continue;
        Value result = emit_.evaluate(token, Variables(vars, 2));
        if (!result.is_null()) context.emit(std::move(result));
      } catch (const ExprError& e) {
        context.report_error(std::string("join: ") + e.what());
      }
    }
  }
}

void Join::fire(FiringContext& context) {
  int side = context.port() == 1 ? 1 : 0;
  std::vector<Value> tokens;
  tokens.reserve(context.window().size());
  for (const Event& event : context.window())
    tokens.push_back(event.token);
  Timestamp time = context.time();

  if (match_ == Match::latest) {
    if (latest_[1 - side]) join(context, side, tokens, latest_[1 - side]->tokens);
    latest_[side] = Kept{time, std::move(tokens)};
    return;
  }

  seen_[side] = std::max(seen_[side], time);
  auto& theirs = waiting_[1 - side];
  auto& mine = waiting_[side];
  // Windows come in time order on each side: the other side's windows older than this one will
  // meet no new partner, nor will ours older than the other side's latest.
  theirs.erase(theirs.begin(), theirs.lower_bound(time));
  mine.erase(mine.begin(), mine.lower_bound(seen_[1 - side]));
  auto partner = theirs.find(time);
  if (partner != theirs.end()) join(context, side, tokens, partner->second);
  // Kept while the other side may still deliver a window of the same time (another group).
  if (time >= seen_[1 - side]) {
    auto& kept = mine[time];
    kept.insert(kept.end(), std::make_move_iterator(tokens.begin()),
                std::make_move_iterator(tokens.end()));
  }
}

ActorType join_type() {
  return make_type(
      "join",
      "Stream join (CWP2): a window from one input is joined with the most recent window of the "
      "other (match: latest) or with its window of the same time (match: time).",
      {{"match", ParamType::string, Value("latest"),
        "latest: join with the most recent window the actor fired on from the other side; time: "
        "join with the other side's window of the same window time, waiting for it"},
       {"on", ParamType::expression, Value(),
        "join condition over `left` and `right` (a token of each side), e.g. left/city == "
        "right/city; not set: every pair"},
       {"emit", ParamType::expression, Value("{left: left, right: right}"),
        "the token emitted for each pair, over `left` and `right`; null emits nothing"}},
      {{"left", "windows of the left stream"}, {"right", "windows of the right stream"}},
      {{"out", "the value of `emit` for each joined pair"}},
      [](const Params& params) -> std::unique_ptr<Actor> {
        std::string match = params.get_string("match");
        Join::Match m;
        if (match == "latest")
          m = Join::Match::latest;
        else if (match == "time")
          m = Join::Match::time;
        else
          throw ParamError("match", "expected latest or time, got '" + match + "'");
        std::optional<Expression> on;
        if (is_set(params, "on")) on = compile_param(params, "on", join_environment());
        return std::make_unique<Join>(m, std::move(on),
                                      compile_param(params, "emit", join_environment()));
      });
}

}  // namespace cwf::actors
