#include "actors/eca/raise_actor.hpp"
#include "actors/eca/site_ids_snapshot.hpp"

#include "actors/actor_type_util.hpp"
#include "actors/eca/occurrence.hpp"

namespace cwf::eca {

void RaiseActor::save_state(SnapshotWriter& out, ActorContext&) {
  save_site_ids(out, *ids_);
}

void RaiseActor::restore_state(SnapshotReader& in, ActorContext&) {
  apply_site_ids(*ids_, read_site_ids(in));
}

RaiseActor::RaiseActor(std::string type, Expression instance, Expression params, std::string site,
                       std::string broker)
    : Actor(kPorts),
      type_(std::move(type)),
      instance_(std::move(instance)),
      params_(std::move(params)),
      site_(std::move(site)),
      broker_(std::move(broker)),
      ids_(&site_ids(site_)),
      value_schema_(Schema::intern({"value"})) {}

void RaiseActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      OccurrenceSpec spec;
      spec.type = type_;
      spec.site = site_;
      spec.id = next_occurrence_id(*ids_);
      spec.time = event.time;
      if (type_.starts_with("REQ(")) spec.request = Value(site_ + ":" + std::to_string(spec.id));
      spec.instance = instance_.evaluate(event.token);
      spec.broker = Value(broker_);
      spec.params = params_.evaluate(event.token);
      if (!spec.params.is_record() && !spec.params.is_null())
        spec.params = Value::record(value_schema_, std::vector<Value>{std::move(spec.params)});
      context.emit(make_occurrence(std::move(spec)));
    } catch (const std::exception& e) {
      context.report_error(e.what());
    }
  }
}

ActorType raise_actor_type() {
  return actors::make_type(
      "eca_raise", "Turns each token into an event occurrence of a primitive type.",
      {{"event", ParamType::string, std::nullopt, "the primitive event type, e.g. REQ(HIC)"},
       {"instance", ParamType::expression, Value("null"), "the workflow instance id, e.g. /claim"},
       {"params", ParamType::expression, Value("/"), "the occurrence's parameters (a record)"},
       {"site", ParamType::string, Value("s1"), "the occurrence site"},
       {"broker", ParamType::string, Value("client"), "the raising broker"}},
      RaiseActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string type = params.get_string("event");
        PrimitiveType primitive;
        if (!parse_primitive_type(type, primitive))
          throw ParamError("event",
                           "expected a primitive event type (REQ(Service), "
                           "RPL(Service.Outcome), EXC(Service.Exception) or TIME(name)), "
                           "got '" +
                               type + "'");
        return std::make_unique<RaiseActor>(type, actors::compile_param(params, "instance"),
                                            actors::compile_param(params, "params"),
                                            params.get_string("site"), params.get_string("broker"));
      });
}

}  // namespace cwf::eca
