#include "actors/lookup.hpp"

#include <string>
#include <vector>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

const ExprEnvironment& lookup_update_environment() {
  static const ExprEnvironment env{"state"};
  return env;
}

const ExprEnvironment& lookup_emit_environment() {
  static const ExprEnvironment env{"found"};
  return env;
}

Lookup::Lookup(LookupOptions options)
    : Actor(kPorts), options_(std::move(options)), table_(options_.forget_after) {}

void Lookup::fire(FiringContext& context) {
  const int side = context.port() == kTable ? Inputs::kRight : Inputs::kLeft;
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    const Event& event = context.window()[i];
    if (event.wave.is_progress()) {
      inputs_.advance(side, event.time);
      continue;
    }
    // Earlier than what its side already delivered: looking it up now would depend on when it
    // arrived.
    if (!inputs_.add(side, event.time, context.take(i))) context.count_late();
  }
  most_waiting_ = std::max(most_waiting_, inputs_.pending());
  release(context, false);
}

void Lookup::end_of_input(FiringContext& context) {
  release(context, true);
}

void Lookup::release(FiringContext& context, bool end_of_input) {
  inputs_.release(end_of_input,
                  [&](Timestamp time, std::vector<Value>& events, std::vector<Value>& changes) {
                    table_.advance(time);
                    // The table as of t includes its changes of t.
                    for (const Value& table_event : changes)
                      change(table_event, time, context);
                    context.set_output_time(time);
                    for (const Value& event : events)
                      look_up(event, context);
                  });
}

void Lookup::change(const Value& event, Timestamp time, FiringContext& context) {
  Value key;
  try {
    key = options_.key.evaluate(event);
  } catch (const ExprError& e) {
    context.report_error(std::string("key: ") + e.what());
    return;
  }
  if (key.is_null()) {
    context.report_error("key: null (a field the table event does not have?)");
    return;
  }
  KeyedStates::Entry* entry = table_.find(key);
  if (!options_.update) {
    table_.set(key, event, time, entry);
    return;
  }
  Value state = entry ? entry->state : Value();
  try {
    table_.set(key, options_.update->evaluate(event, Variables(&state, 1)), time, entry);
  } catch (const ExprError& e) {
    context.report_error(std::string("update: ") + e.what());  // the key keeps its state
  }
}

Value Lookup::state_of(const Value& key) {
  if (key.is_null()) return Value();
  KeyedStates::Entry* entry = table_.find(key);
  return entry ? entry->state : Value();
}

void Lookup::look_up(const Value& event, FiringContext& context) {
  Value found;
  try {
    Value probe = options_.probe.evaluate(event);
    if (!options_.probe_each) {
      found = state_of(probe);
    } else if (probe.is_array()) {
      // Gathered in a buffer kept between events: no allocation but the array's.
      states_.clear();
      for (const Value& key : probe.as_array())
        states_.push_back(state_of(key));
      found = Value::array(std::move(states_));
      states_.clear();
    } else if (!probe.is_null()) {
      context.report_error("probe: an array of keys was expected (probe_each), got " +
                           probe.to_json());
      return;
    }
  } catch (const ExprError& e) {
    context.report_error(std::string("probe: ") + e.what());
    return;
  }
  try {
    Value out = options_.emit.evaluate(event, Variables(&found, 1));
    if (!out.is_null()) context.emit(std::move(out));
  } catch (const ExprError& e) {
    context.report_error(std::string("emit: ") + e.what());
  }
}

void Lookup::save_state(SnapshotWriter& out, ActorContext&) {
  inputs_.save(out, [](SnapshotWriter& w, const Value& v) { w.write_value(v); });
  table_.save(out);
}

void Lookup::restore_state(SnapshotReader& in, ActorContext&) {
  inputs_.restore(in, [](SnapshotReader& r) { return r.read_value("a waiting event"); });
  table_.restore(in);
}

ActorType lookup_type() {
  return make_type(
      "lookup",
      "Each `in` event looked up, in event time, in a table by key that the `table` events keep: "
      "`emit` over the event and `found`, the state of the key `probe` gives as the table events "
      "up to the event's time left it.",
      {{"key", ParamType::expression, std::nullopt,
        "a table event's key, e.g. [/xway, /dir, /seg]"},
       {"update", ParamType::expression, Value(),
        "the key's new state over `state` (its old one, null for a new key) and the table event "
        "`/`; null forgets the key; not set: the table event itself"},
       {"probe", ParamType::expression, std::nullopt,
        "the key an `in` event looks up, e.g. [/xway, /dir, /seg]; with probe_each an array of "
        "keys"},
       {"probe_each", ParamType::boolean, Value(false),
        "probe gives an array of keys, and `found` is the array of their states"},
       {"emit", ParamType::expression, std::nullopt,
        "what to send on over the `in` event `/` and `found` (the key's state, null when it has "
        "none); null sends nothing"},
       {"forget_after", ParamType::duration, Value(),
        "forget a key once time is this far past its latest change (a duration, e.g. 6 min); "
        "not set: keys stay until their state is null"}},
      Lookup::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        LookupOptions options{compile_param(params, "key"),
                              std::nullopt,
                              compile_param(params, "probe"),
                              params.get_bool("probe_each"),
                              compile_param(params, "emit", lookup_emit_environment()),
                              0};
        if (is_set(params, "update"))
          options.update = compile_param(params, "update", lookup_update_environment());
        if (is_set(params, "forget_after")) {
          options.forget_after = params.get_duration("forget_after");
          if (options.forget_after <= 0)
            throw ParamError("forget_after", "forget_after must be above 0");
        }
        return std::make_unique<Lookup>(std::move(options));
      });
}

}  // namespace cwf::actors
