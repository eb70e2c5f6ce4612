#include "actors/fold.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "actors/actor_type_util.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

const ExprEnvironment& fold_environment() {
  static const ExprEnvironment env{"state", "previous"};
  return env;
}

Fold::Fold(FoldOptions options) : Actor(kPorts), options_(std::move(options)) {}

void Fold::forget_quiet_keys(Timestamp latest) {
  if (options_.forget_after <= 0 ||
      latest < std::numeric_limits<Timestamp>::min() + options_.forget_after)
    return;
  const Timestamp quiet_through = latest - options_.forget_after;
  while (!watched_.empty() && watched_.top().first <= quiet_through) {
    Watch watch = watched_.top();
    watched_.pop();
    auto it = table_.find(watch.second);
    if (it == table_.end()) continue;  // forgotten by a null state meanwhile
    if (it->second.latest > quiet_through)
      watched_.push({it->second.latest, std::move(watch.second)});  // it had events since
    else
      table_.erase(it);
  }
}

void Fold::handle(const Event& event, FiringContext& context) {
  if (!any_event_ || event.time > latest_) {
    forget_quiet_keys(event.time);
    latest_ = event.time;
    any_event_ = true;
  }
  Value key;
  try {
    key = options_.key.evaluate(event.token);
  } catch (const ExprError& e) {
    context.report_error(std::string("key: ") + e.what());
    return;
  }
  if (key.is_null()) {
    context.report_error("key: null (a field the event does not have?)");
    return;
  }
  auto it = table_.find(key);
  Value previous = it == table_.end() ? Value() : it->second.state;
  Value vars[2] = {previous, previous};
  Value state;
  try {
    state = options_.update.evaluate(event.token, Variables(vars, 2));
  } catch (const ExprError& e) {
    context.report_error(std::string("update: ") + e.what());
    return;  // the key keeps its state
  }
  if (state.is_null()) {
    if (it != table_.end()) table_.erase(it);
  } else if (it == table_.end()) {
    table_.emplace(key, Entry{state, event.time});
    if (options_.forget_after > 0) watched_.push({event.time, key});
  } else {
    it->second.state = state;
    it->second.latest = std::max(it->second.latest, event.time);
  }
  if (!options_.emit) {
    if (!state.is_null()) context.emit(std::move(state));
    return;
  }
  vars[0] = std::move(state);
  try {
    Value out = options_.emit->evaluate(event.token, Variables(vars, 2));
    if (!out.is_null()) context.emit(std::move(out));
  } catch (const ExprError& e) {
    context.report_error(std::string("emit: ") + e.what());
  }
}

void Fold::fire(FiringContext& context) {
  for (const Event& event : context.window())
    handle(event, context);
}

void Fold::save_state(SnapshotWriter& out, ActorContext&) {
  // Keys in the order of their latest event, then of their text: the same bytes for the same
  // table whatever the hash map's order.
  std::vector<const std::pair<const Value, Entry>*> entries;
  entries.reserve(table_.size());
  for (const auto& entry : table_)
    entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
    if (a->second.latest != b->second.latest) return a->second.latest < b->second.latest;
    return a->first.to_json() < b->first.to_json();
  });
  out.write_bool(any_event_);
  out.write_timestamp(latest_);
  out.write_u64(entries.size());
  for (const auto* entry : entries) {
    out.write_value(entry->first);
    out.write_value(entry->second.state);
    out.write_timestamp(entry->second.latest);
  }
}

void Fold::restore_state(SnapshotReader& in, ActorContext&) {
  table_.clear();
  watched_ = {};
  any_event_ = in.read_bool("whether an event came");
  latest_ = in.read_timestamp("the latest event time");
  for (std::size_t n = in.read_count("the number of keys"); n > 0; --n) {
    Value key = in.read_value("a key");
    Value state = in.read_value("a key's state");
    Timestamp latest = in.read_timestamp("a key's latest event time");
    if (key.is_null() || state.is_null()) in.reject("a key", "neither a key nor a state is null");
    if (!table_.emplace(key, Entry{std::move(state), latest}).second)
      in.reject("a key", "it is written twice");
    if (options_.forget_after > 0) watched_.push({latest, std::move(key)});
  }
}

ActorType fold_type() {
  return make_type(
      "fold",
      "Keyed state: for each event, the state of its key becomes the value of `update` (over "
      "`state`, the old one, and the event), and `emit` says what to send on.",
      {{"key", ParamType::expression, std::nullopt, "the event's key, e.g. [/xway, /dir, /pos]"},
       {"update", ParamType::expression, std::nullopt,
        "the key's new state over `state` (its old one, null for a new key) and the event `/`; "
        "null forgets the key; e.g. (state == null ? 0 : state) + /toll"},
       {"emit", ParamType::expression, Value(),
        "what to send on over `state` (the new state), `previous` (the old one) and the event "
        "`/`; null sends nothing; not set: the new state"},
       {"forget_after", ParamType::duration, Value(),
        "forget a key once the latest event time is this far past its latest event (a duration, "
        "e.g. 10 min); not set: keys stay until their state is null"}},
      Fold::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        FoldOptions options{compile_param(params, "key"),
                            compile_param(params, "update", fold_environment()), std::nullopt, 0};
        if (is_set(params, "emit"))
          options.emit = compile_param(params, "emit", fold_environment());
        if (is_set(params, "forget_after")) {
          options.forget_after = params.get_duration("forget_after");
          if (options.forget_after <= 0)
            throw ParamError("forget_after", "forget_after must be above 0");
        }
        return std::make_unique<Fold>(std::move(options));
      });
}

}  // namespace cwf::actors
