#include "actors/window_aggregate.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/expr_error.hpp"

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

WindowAggregate::WindowAggregate(AggregateFactory factory, std::optional<Expression> value,
                                 std::string as, bool recompute)
    : state_(std::move(factory), std::move(value), recompute), as_(std::move(as)) {
  add_input("in", "the windows to aggregate");
  add_output("out", "one record per window");
}

void WindowAggregate::fire(FiringContext& context) {
  const Window& window = context.window_info();
  Value result = state_.apply(window, [&](const std::string& m) { context.report_error(m); });
  Value count(static_cast<std::int64_t>(window.events.size()));
  // A result named `count` (count under its own name) is the record's only count: a second
  // field of that name would make a JSON object with a repeated key.
  const bool with_count = as_ != "count";
  if (window.key && with_count)
    context.emit(
        Value::record({{"group", *window.key}, {as_, std::move(result)}, {"count", count}}));
  else if (window.key)
    context.emit(Value::record({{"group", *window.key}, {as_, std::move(result)}}));
  else if (with_count)
    context.emit(Value::record({{as_, std::move(result)}, {"count", count}}));
  else
    context.emit(Value::record({{as_, std::move(result)}}));
}

ActorType aggregate_type() {
  return make_type(
      "aggregate",
      "One aggregate per window (count, sum, avg, min, max), computed incrementally per group: "
      "adds the window's new events and compensates those that left instead of recomputing. "
      "Emits {group: <group-by key>, <as>: <result>, count: <events in the window>} (group only "
      "with group-by; no separate count when <as> is count).",
      {{"function", ParamType::string, std::nullopt, "count | sum | avg | min | max"},
       {"value", ParamType::expression, Value(),
        "what to aggregate from each token, e.g. /speed (not needed for count: then every event "
        "counts); null values are ignored"},
       {"as", ParamType::string, Value(),
        "the output field of the result (default: function; not group)"},
       {"recompute", ParamType::boolean, Value(false),
        "fold every window from scratch instead (the baseline of the incremental operator)"}},
      {{"in", "the windows to aggregate"}}, {{"out", "one record per window"}},
      [](const Params& params) -> std::unique_ptr<Actor> {
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
        return std::make_unique<WindowAggregate>(std::move(factory), std::move(value),
                                                 std::move(as), params.get("recompute").as_bool());
      });
}

}  // namespace cwf::actors
