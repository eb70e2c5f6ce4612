#include "actors/join.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/actor/actor_stats.hpp"

namespace cwf::actors {

namespace {

const ExprEnvironment& join_environment() {
  static const ExprEnvironment env{"left", "right"};
  return env;
}

}  // namespace

Join::Join(Match match, Trigger trigger, std::optional<Expression> on, Expression emit)
    : Actor(kPorts), match_(match), trigger_(trigger), on_(std::move(on)), emit_(std::move(emit)) {}

void Join::fire(FiringContext& context) {
  int side = context.port() == 1 ? Inputs::kRight : Inputs::kLeft;
  Tokens tokens;
  tokens.reserve(context.window().size());
  for (std::size_t i = 0; i < context.window().size(); ++i)
    tokens.push_back(context.take(i));
  if (!inputs_.add(side, context.time(), std::move(tokens))) {
    // Earlier than a window its side already delivered: joining it now would depend on when
    // it arrived.
    context.count_late();
    return;
  }
  release(context, false);
}

void Join::end_of_input(FiringContext& context) {
  release(context, true);
}

void Join::release(FiringContext& context, bool end_of_input) {
  inputs_.release(end_of_input,
                  [&](Timestamp time, std::vector<Tokens>& lefts, std::vector<Tokens>& rights) {
                    context.set_output_time(time);
                    join_batch(context, time, lefts, rights);
                    // match: latest — the last window of each side is what later windows of the
                    // other meet.
                    if (!lefts.empty()) latest_[Inputs::kLeft] = std::move(lefts.back());
                    if (!rights.empty()) latest_[Inputs::kRight] = std::move(rights.back());
                  });
}

void Join::join_batch(FiringContext& context, Timestamp, const std::vector<Tokens>& lefts,
                      const std::vector<Tokens>& rights) {
  if (match_ == Match::time) {
    for (const Tokens& left : lefts)
      for (const Tokens& right : rights)
        join_windows(context, left, right);
    return;
  }
  // The latest window of each side at or before this time: one of this time if there is one.
  const Tokens* latest_right = !rights.empty()           ? &rights.back()
                               : latest_[Inputs::kRight] ? &*latest_[Inputs::kRight]
                                                         : nullptr;
  const Tokens* latest_left = !lefts.empty()           ? &lefts.back()
                              : latest_[Inputs::kLeft] ? &*latest_[Inputs::kLeft]
                                                       : nullptr;
  const bool by_left = trigger_ != Trigger::right, by_right = trigger_ != Trigger::left;
  if (by_left && latest_right)
    for (const Tokens& left : lefts)
      join_windows(context, left, *latest_right);
  if (by_right && latest_left)
    for (std::size_t i = 0; i < rights.size(); ++i) {
      // The last windows of this time on both sides were joined above.
      if (by_left && i + 1 == rights.size() && !lefts.empty()) break;
      join_windows(context, *latest_left, rights[i]);
    }
}

void Join::join_windows(FiringContext& context, const Tokens& left, const Tokens& right) {
  Value vars[2];
  for (const Value& l : left) {
    for (const Value& r : right) {
      vars[0] = l;
      vars[1] = r;
      try {
        if (on_ && !on_->matches(l, Variables(vars, 2))) continue;
        Value result = emit_.evaluate(l, Variables(vars, 2));
        if (!result.is_null()) context.emit(std::move(result));
      } catch (const ExprError& e) {
        context.report_error(std::string("join: ") + e.what());
      }
    }
  }
}

namespace {
void write_tokens(SnapshotWriter& out, const std::vector<Value>& tokens) {
  out.write_u64(tokens.size());
  for (const Value& token : tokens)
    out.write_value(token);
}
std::vector<Value> read_tokens(SnapshotReader& in) {
  std::vector<Value> tokens(in.read_count("the tokens of a window"));
  for (Value& token : tokens)
    token = in.read_value("a token");
  return tokens;
}
}  // namespace

void Join::save_state(SnapshotWriter& out, ActorContext&) {
  inputs_.save(out, write_tokens);
  for (const std::optional<Tokens>& latest : latest_) {
    out.write_bool(latest.has_value());
    if (latest) write_tokens(out, *latest);
  }
}

void Join::restore_state(SnapshotReader& in, ActorContext&) {
  inputs_.restore(in, read_tokens);
  for (std::optional<Tokens>& latest : latest_) {
    latest.reset();
    if (in.read_bool("whether a side has a latest window")) latest = read_tokens(in);
  }
}

ActorType join_type() {
  return make_type(
      "join",
      "Stream join (CWP2) in event time: a window from one input is joined with the latest window "
      "of the other at or before its time (match: latest) or with its windows of the same time "
      "(match: time).",
      {{"match", ParamType::string, Value("latest"),
        "latest: join with the other side's latest window at or before the window's time; time: "
        "join with the other side's windows of the same time"},
       {"trigger", ParamType::string, Value("both"),
        "match: latest only: whose windows are joined with the other side's latest: both, left "
        "(each left window once, with the latest right: an as-of join) or right"},
       {"on", ParamType::expression, Value(),
        "join condition over `left` and `right` (a token of each side), e.g. left/city == "
        "right/city; not set: every pair"},
       {"emit", ParamType::expression, Value("{left: left, right: right}"),
        "the token emitted for each pair, over `left` and `right`; null emits nothing"}},
      Join::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string match = params.get_string("match");
        Join::Match m;
        if (match == "latest")
          m = Join::Match::latest;
        else if (match == "time")
          m = Join::Match::time;
        else
          throw ParamError("match", "expected latest or time, got '" + match + "'");
        std::string trigger = params.get_string("trigger");
        Join::Trigger t;
        if (trigger == "both")
          t = Join::Trigger::both;
        else if (trigger == "left")
          t = Join::Trigger::left;
        else if (trigger == "right")
          t = Join::Trigger::right;
        else
          throw ParamError("trigger", "expected both, left or right, got '" + trigger + "'");
        if (m == Join::Match::time && t != Join::Trigger::both)
          throw ParamError("trigger", "only match: latest has a trigger side");
        std::optional<Expression> on;
        if (is_set(params, "on")) on = compile_param(params, "on", join_environment());
        return std::make_unique<Join>(m, t, std::move(on),
                                      compile_param(params, "emit", join_environment()));
      });
}

}  // namespace cwf::actors
