#include "actors/window_aggregate.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/expressions/expr_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

IncrementalAggregate::IncrementalAggregate(AggregateFactory factory,
                                           std::optional<Expression> value, bool recompute)
    : factory_(std::move(factory)),
      value_(std::move(value)),
      recompute_(recompute),
      scratch_(factory_()) {}

Value IncrementalAggregate::value_of(const Event& event,
                                     const std::function<void(const std::string&)>& error) {
  ++evaluated_;
  if (!value_) return Value(true);
  try {
    return value_->evaluate(event.token);
  } catch (const ExprError& e) {
    if (error) error(std::string("value: ") + e.what());
    return Value();
  }
}

Value IncrementalAggregate::accumulate(Aggregate& aggregate, Value v,
                                       const std::function<void(const std::string&)>& error) {
  try {
    aggregate.accumulate(v);
    return v;
  } catch (const std::invalid_argument& e) {
    // Left out like a value that failed to evaluate; held as null, so nothing compensates it.
    if (error) error(e.what());
    return Value();
  }
}

Value IncrementalAggregate::apply(const Window& window,
                                  const std::function<void(const std::string&)>& error) {
  const std::size_t n = window.events.size();
  if (recompute_ || !window.contiguous || window.seqs.size() != n) {
    // From scratch; the group's state no longer matches what it holds.
    if (window.group < groups_.size()) groups_[window.group] = Group{};
    scratch_->reset();
    for (const Event& e : window.events)
      accumulate(*scratch_, value_of(e, error), error);
    return scratch_->result();
  }
  if (window.group >= groups_.size()) groups_.resize(window.group + 1);
  Group& g = groups_[window.group];
  if (!g.aggregate) g.aggregate = factory_();
  // Compensate: the values before the window's first event left it.
  while (!g.held.empty() && g.held.front().seq < window.first_seq) {
    g.aggregate->compensate(g.held.front().value);
    g.held.pop_front();
  }
  // What is left is a run of the previous (contiguous) window; the window starts with exactly
  // that run unless some of it was deleted meanwhile (then start over).
  std::size_t h = g.held.size();
  if (h > 0 && (h > n || window.seqs[h - 1] != g.held.back().seq)) {
    g.held.clear();
    g.aggregate->reset();
    h = 0;
  }
  // Accumulate the new ones.
  for (std::size_t i = h; i < n; ++i) {
    Value v = accumulate(*g.aggregate, value_of(window.events[i], error), error);
    g.held.push_back({window.seqs[i], std::move(v)});
  }
  return g.aggregate->result();
}

bool IncrementalAggregate::checkpointable() const {
  return scratch_->checkpointable();
}

void IncrementalAggregate::save(SnapshotWriter& out) const {
  out.write_u64(groups_.size());
  for (const Group& g : groups_) {
    out.write_bool(g.aggregate != nullptr);
    if (g.aggregate) g.aggregate->save(out);
    out.write_u64(g.held.size());
    for (const Held& held : g.held) {
      out.write_u64(held.seq);
      out.write_value(held.value);
    }
  }
  out.write_u64(evaluated_);
}

void IncrementalAggregate::restore(SnapshotReader& in) {
  groups_.clear();
  groups_.resize(in.read_count("the number of groups"));
  for (Group& g : groups_) {
    if (in.read_bool("whether the group has an aggregate")) {
      g.aggregate = factory_();
      g.aggregate->restore(in);
    }
    std::size_t held = in.read_count("the number of values held");
    if (held > 0 && !g.aggregate) in.reject("the values held", "a group without an aggregate");
    for (std::size_t n = held; n > 0; --n) {
      std::uint64_t seq = in.read_u64("a value's arrival number");
      if (!g.held.empty() && seq <= g.held.back().seq)
        in.reject("a value's arrival number", "not after the one before");
      g.held.push_back({seq, in.read_value("a value held")});
    }
  }
  evaluated_ = in.read_u64("the values evaluated");
}

Value WindowTimes::of(Timestamp time) const {
  if (iso) return Value(format_iso8601(time));
  if (time % unit == 0) return Value(static_cast<std::int64_t>(time / unit));
  return Value(static_cast<double>(time) / static_cast<double>(unit));
}

WindowAggregate::WindowAggregate(AggregateFactory factory, std::optional<Expression> value,
                                 std::string as, bool recompute, std::optional<WindowTimes> times)
    : Actor(kPorts),
      state_(std::move(factory), std::move(value), recompute),
      as_(std::move(as)),
      times_(times) {
  for (bool with_group : {false, true}) {
    std::vector<std::string> fields;
    if (times_) fields.insert(fields.end(), {"window_start", "window_end"});
    if (with_group) fields.push_back("group");
    fields.push_back(as_);
    // A result named `count` (count under its own name) is the record's only count.
    if (as_ != "count") fields.push_back("count");
    schema_[with_group] = Schema::intern(fields);  // throws for an `as` that repeats a field
  }
}

void WindowAggregate::save_state(SnapshotWriter& out, ActorContext&) {
  state_.save(out);
}

void WindowAggregate::restore_state(SnapshotReader& in, ActorContext&) {
  state_.restore(in);
}

void WindowAggregate::fire(FiringContext& context) {
  const Window& window = context.window_info();
  Value result = state_.apply(window, [&](const std::string& m) { context.report_error(m); });
  const Schema* schema = schema_[window.key != nullptr];
  std::vector<Value> slots;
  slots.reserve(schema->size());
  if (times_) {
    std::optional<Timestamp> start = window.start(), end = window.end();
    slots.push_back(start ? times_->of(*start) : Value());
    slots.push_back(end ? times_->of(*end) : Value());
  }
  if (window.key) slots.push_back(*window.key);
  slots.push_back(std::move(result));
  if (slots.size() < schema->size())
    slots.push_back(Value(static_cast<std::int64_t>(window.events.size())));
  context.emit(Value::record(schema, std::move(slots)));
}

ActorType aggregate_type() {
  return make_type(
      "aggregate",
      "One aggregate per window (count, sum, avg, min, max), computed incrementally per group: "
      "adds the window's new events and compensates those that left instead of recomputing. "
      "Emits {window_start, window_end, group: <group-by key>, <as>: <result>, count: <events "
      "in the window>} (the window's bounds only with window_times, group only with group-by; no "
      "separate count when <as> is count).",
      {{"function", ParamType::string, std::nullopt, "count | sum | avg | min | max"},
       {"value", ParamType::expression, Value(),
        "what to aggregate from each token, e.g. /speed (not needed for count: then every event "
        "counts); null values are ignored"},
       {"as", ParamType::string, Value(),
        "the output field of the result (default: function; not group)"},
       {"recompute", ParamType::boolean, Value(false),
        "fold every window from scratch instead (the baseline of the incremental operator)"},
       {"window_times", ParamType::string, Value(),
        "add the window's bounds as window_start and window_end: s | ms | us | ns (numbers in "
        "that unit) or iso (ISO-8601 date-times in UTC); a time window's [start, end), else its "
        "first and last event's timestamps; not set: no bounds"}},
      WindowAggregate::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string function(params.get("function").as_string());
        AggregateFactory factory = builtin_aggregate(function);
        if (!factory)
          throw ParamError("function",
                           "unknown function '" + function + "' (use count, sum, avg, min or max)");
        std::optional<Expression> value;
        if (is_set(params, "value")) {
          value = compile_param(params, "value");
        } else if (function != "count") {
          throw ParamError("value", "needed for " + function + " (e.g. value: /speed)");
        }
        std::string as =
            is_set(params, "as") ? std::string(params.get("as").as_string()) : function;
        if (as == "group")
          throw ParamError("as", "'group' is the field of the group-by key; choose another name");
        std::optional<WindowTimes> times;
        if (is_set(params, "window_times")) {
          times = WindowTimes{};
          if (params.get_string("window_times") == "iso") {
            times->iso = true;
          } else {
            try {
              times->unit = parse_time_unit(params, "window_times");
            } catch (const ParamError&) {
              throw ParamError("window_times", "unknown format '" +
                                                   params.get_string("window_times") +
                                                   "' (use s, ms, us, ns or iso)");
            }
          }
          if (as == "window_start" || as == "window_end")
            throw ParamError("as", "'" + as +
                                       "' is a field of the window's bounds (window_times); "
                                       "choose another name");
        }
        return std::make_unique<WindowAggregate>(std::move(factory), std::move(value),
                                                 std::move(as), params.get("recompute").as_bool(),
                                                 times);
      });
}

}  // namespace cwf::actors
