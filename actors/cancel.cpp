#include "actors/cancel.hpp"

#include "actors/actor_type_util.hpp"

namespace cwf::actors {

Cancel::Cancel(Options options) : Actor(kPorts), options_(std::move(options)) {}

void Cancel::initialize(ActorContext& context) {
  scope_ = context.declare_cancellation_scope(options_.scope, options_.retract, options_.remember);
}

void Cancel::fire(FiringContext& context) {
  for (std::size_t i = 0; i < context.window().size(); ++i) {
    const Event& event = context.window()[i];
    CaseId what;
    if (options_.key) {
      what.key = options_.key->evaluate(event.token);
      what.match = options_.match;
      if (what.key.is_null()) {
        context.report_error("key: null (a field the cancel event does not have?)");
        continue;
      }
    } else {
      what.wave = event.wave.root();
    }
    context.cancel_case(std::move(what), scope_);
    context.emit(context.take(i));
  }
}

ActorType cancel_type() {
  return make_type(
      "cancel",
      "Cancels a case (CWP4): removes its events from the queues and windows of the actors in "
      "`scope`, tells them to retract it, and makes the actors in `retract` emit "
      "{retracted: <output>} for each output they produced for it.",
      {{"scope", ParamType::strings, std::nullopt,
        "the actors whose input queues and windows lose the case's events (those still queued "
        "and those that arrive later) and which are told to retract it"},
       {"retract", ParamType::strings, Value(),
        "actors that remember their last `remember` outputs and emit a retraction record "
        "{retracted: <output>} for each one of a cancelled case (they are in the scope too)"},
       {"remember", ParamType::integer, Value(1000),
        "how many of its last outputs each actor in `retract` remembers (older ones are not "
        "retracted)"},
       {"key", ParamType::expression, Value(),
        "the case's key on the cancel event, e.g. /order; not set: the case is the wave of the "
        "cancel event (the external event it descends from, and everything else descending from "
        "it)"},
       {"match", ParamType::expression, Value(),
        "with `key`: the key of an event in scope, e.g. /order (default: the `key` expression); "
        "an event whose match equals the cancelled key belongs to the case"}},
      Cancel::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        Cancel::Options options;
        options.scope = params.get_strings("scope");
        if (is_set(params, "retract")) options.retract = params.get_strings("retract");
        std::int64_t remember = params.get_int("remember");
        if (remember < 1) throw ParamError("remember", "must be at least 1");
        options.remember = static_cast<std::size_t>(remember);
        if (is_set(params, "key")) {
          options.key = compile_param(params, "key");
          options.match = std::make_shared<const Expression>(
              compile_param(params, is_set(params, "match") ? "match" : "key"));
        } else if (is_set(params, "match")) {
          throw ParamError("match", "needs `key` (a wave case is matched by its wave)");
        }
        return std::make_unique<Cancel>(std::move(options));
      });
}

}  // namespace cwf::actors
