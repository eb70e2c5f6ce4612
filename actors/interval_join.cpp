#include "actors/interval_join.hpp"

#include <limits>

#include "actors/actor_type_util.hpp"
#include "runtime/actor/actor_stats.hpp"

namespace cwf::actors {

namespace {

const ExprEnvironment& pair_environment() {
  static const ExprEnvironment env{"left", "right"};
  return env;
}

// Whether `base + offset < frontier`, without overflow: everything before `frontier` has been
// taken in, so nothing at or before `base + offset` can come any more.
bool passed(Timestamp base, Duration offset, Timestamp frontier) {
  if (frontier == std::numeric_limits<Timestamp>::max()) return true;  // the input has ended
  Timestamp deadline;
  if (__builtin_add_overflow(base, offset, &deadline)) return offset < 0;
  return deadline < frontier;
}

}  // namespace

IntervalJoin::IntervalJoin(IntervalJoinOptions options)
    : Actor(kPorts), options_(std::move(options)) {}

std::uint64_t IntervalJoin::Side::add(Timestamp time, Arrived&& arrived) {
  std::uint64_t sequence = first + entries.size();
  by_key[arrived.key].push_back(sequence);
  entries.push_back({time, std::move(arrived.key), std::move(arrived.token)});
  return sequence;
}

std::size_t IntervalJoin::held() const {
  return sides_[0].entries.size() + sides_[1].entries.size() + inputs_.pending();
}

void IntervalJoin::fire(FiringContext& context) {
  int side = context.port() == 1 ? Inputs::kRight : Inputs::kLeft;
  const Expression& key_of = side == Inputs::kLeft ? options_.left_key : options_.right_key;
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    Timestamp time = context.window()[i].time;
    Value token = context.take(i);
    Value key;
    try {
      key = key_of.evaluate(token);
    } catch (const ExprError& e) {
      context.report_error(std::string(side == Inputs::kLeft ? "left_key: " : "right_key: ") +
                           e.what());
      continue;
    }
    if (key.is_null()) {
      // A missing field is most likely a mistake; null never equals null in a join anyway.
      context.report_error(side == Inputs::kLeft ? "left_key is null" : "right_key is null");
      continue;
    }
    // Earlier than an event its side already delivered: late, whatever the other side did.
    if (!inputs_.add(side, time, Arrived{std::move(key), std::move(token)})) context.count_late();
  }
  release(context, false);
}

void IntervalJoin::end_of_input(FiringContext& context) {
  release(context, true);
}

void IntervalJoin::release(FiringContext& context, bool end_of_input) {
  inputs_.release(end_of_input,
                  [&](Timestamp time, std::vector<Arrived>& lefts, std::vector<Arrived>& rights) {
                    context.set_output_time(time);
                    for (Arrived& left : lefts)
                      take_in(context, Inputs::kLeft, time, std::move(left));
                    for (Arrived& right : rights)
                      take_in(context, Inputs::kRight, time, std::move(right));
                  });
  forget_unreachable(context);
}

// Everything earlier than this event has been taken in: it meets the events of the other side
// already held (in time order), and is held for the later ones.
void IntervalJoin::take_in(FiringContext& context, int side, Timestamp time, Arrived&& arrived) {
  Side& mine = sides_[side];
  Side& theirs = sides_[1 - side];
  std::uint64_t sequence = mine.add(time, std::move(arrived));
  auto partners = theirs.by_key.find(mine.at(sequence).key);
  if (partners == theirs.by_key.end()) return;
  for (std::uint64_t other : partners->second) {
    Side::Entry& partner = theirs.at(other);
    if (side == Inputs::kLeft)
      join(context, mine.at(sequence), partner);
    else
      join(context, partner, mine.at(sequence));
  }
}

void IntervalJoin::join(FiringContext& context, Side::Entry& left, Side::Entry& right) {
  Duration gap;
  if (__builtin_sub_overflow(right.time, left.time, &gap)) return;
  if (gap < options_.lower || gap > options_.upper) return;
  Value vars[2] = {left.token, right.token};
  try {
    if (options_.on && !options_.on->matches(left.token, Variables(vars, 2))) return;
    left.matched = right.matched = true;
    Value result = options_.emit.evaluate(left.token, Variables(vars, 2));
    if (!result.is_null()) context.emit(kOut, std::move(result));
  } catch (const ExprError& e) {
    context.report_error(std::string("interval_join: ") + e.what());
  }
}

// A left event can meet no right event after l.time + upper, a right one no left event after
// r.time - lower; both offsets are the same for every event, so the events of each side become
// unreachable in the order they were taken in.
void IntervalJoin::forget_unreachable(FiringContext& context) {
  const Timestamp frontier = inputs_.frontier();
  const Duration reach[2] = {options_.upper, -options_.lower};
  const int unmatched_port[2] = {kLeftUnmatched, kRightUnmatched};
  for (int s : {Inputs::kLeft, Inputs::kRight}) {
    Side& side = sides_[s];
    const bool report = context.connected(unmatched_port[s]);
    while (!side.entries.empty() && passed(side.entries.front().time, reach[s], frontier)) {
      Side::Entry& entry = side.entries.front();
      if (!entry.matched && report) {
        context.set_output_time(entry.time);
        context.emit(unmatched_port[s], std::move(entry.token));
      }
      auto same_key = side.by_key.find(entry.key);
      same_key->second.pop_front();
      if (same_key->second.empty()) side.by_key.erase(same_key);
      side.entries.pop_front();
      ++side.first;
    }
  }
}

void IntervalJoin::save_state(SnapshotWriter& out, ActorContext&) {
  inputs_.save(out, [](SnapshotWriter& w, const Arrived& arrived) {
    w.write_value(arrived.key);
    w.write_value(arrived.token);
  });
  for (const Side& side : sides_) {
    out.write_u64(side.first);
    out.write_u64(side.entries.size());
    for (const Side::Entry& entry : side.entries) {
      out.write_timestamp(entry.time);
      out.write_value(entry.key);
      out.write_value(entry.token);
      out.write_bool(entry.matched);
    }
  }
}

void IntervalJoin::restore_state(SnapshotReader& in, ActorContext&) {
  inputs_.restore(in, [](SnapshotReader& r) {
    Value key = r.read_value("a pending event's key");
    return Arrived{std::move(key), r.read_value("a pending event's token")};
  });
  for (Side& side : sides_) {
    side.entries.clear();
    side.by_key.clear();
    side.first = in.read_u64("a side's first sequence number");
    for (std::size_t n = in.read_count("a side's released events"); n > 0; --n) {
      Timestamp time = in.read_timestamp("a released event's time");
      Value key = in.read_value("a released event's key");
      Arrived arrived{std::move(key), in.read_value("a released event's token")};
      bool matched = in.read_bool("whether a released event met a partner");
      side.add(time, std::move(arrived));
      side.entries.back().matched = matched;
    }
  }
}

ActorType interval_join_type() {
  return make_type(
      "interval_join",
      "Keyed interval join in event time: each left event with the right events of the same key "
      "between lower and upper after it; the unmatched leave on their own ports.",
      {{"key", ParamType::expression, Value(),
        "the key of the events of both sides, e.g. /order; or left_key and right_key"},
       {"left_key", ParamType::expression, Value(), "the key of a left event (default: key)"},
       {"right_key", ParamType::expression, Value(), "the key of a right event (default: key)"},
       {"lower", ParamType::string, Value("0"),
        "earliest right event time relative to the left event's, included: a duration, may be "
        "negative (-5 min)"},
       {"upper", ParamType::string, std::nullopt,
        "latest right event time relative to the left event's, included (10 min)"},
       {"on", ParamType::expression, Value(),
        "a further condition over `left` and `right`; not set: equal keys within the bounds"},
       {"emit", ParamType::expression, Value("{left: left, right: right}"),
        "the token emitted for each pair, over `left` and `right`; null emits nothing"}},
      IntervalJoin::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        auto key_of = [&](const char* name) {
          if (is_set(params, name)) return compile_param(params, name);
          if (is_set(params, "key")) return compile_param(params, "key");
          throw ParamError(name, std::string("no key for this side: set key, or ") + name);
        };
        Duration lower = parse_signed_duration(params, "lower");
        Duration upper = parse_signed_duration(params, "upper");
        if (lower > upper) throw ParamError("upper", "upper must not be below lower");
        std::optional<Expression> on;
        if (is_set(params, "on")) on = compile_param(params, "on", pair_environment());
        return std::make_unique<IntervalJoin>(
            IntervalJoinOptions{key_of("left_key"), key_of("right_key"), lower, upper,
                                std::move(on), compile_param(params, "emit", pair_environment())});
      });
}

}  // namespace cwf::actors
