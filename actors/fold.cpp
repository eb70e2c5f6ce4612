#include "actors/fold.hpp"

#include <string>

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

const ExprEnvironment& fold_environment() {
  static const ExprEnvironment env{"state", "previous"};
  return env;
}

Fold::Fold(FoldOptions options)
    : Actor(kPorts), options_(std::move(options)), table_(options_.forget_after) {}

void Fold::handle(const Event& event, FiringContext& context) {
  table_.advance(event.time);
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
  KeyedStates::Entry* entry = table_.find(key);
  Value previous = entry ? entry->state : Value();
  Value vars[2] = {previous, previous};
  Value state;
  try {
    state = options_.update.evaluate(event.token, Variables(vars, 2));
  } catch (const ExprError& e) {
    context.report_error(std::string("update: ") + e.what());
    return;  // the key keeps its state
  }
  table_.set(key, state, event.time, entry);
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
  table_.save(out);
}

void Fold::restore_state(SnapshotReader& in, ActorContext&) {
  table_.restore(in);
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
