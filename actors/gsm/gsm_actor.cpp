#include "actors/gsm/gsm_actor.hpp"

#include "actors/actor_type_util.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::gsm {

GsmActor::GsmActor(std::shared_ptr<const CompiledModel> model, GsmActorOptions options)
    : Actor(kPorts),
      options_(std::move(options)),
      engine_(model),
      reader_(std::move(model), options_.instance, options_.event, options_.data),
      status_schema_(Schema::intern({"instance", "step", "event", "type", "change"})),
      invoke_schema_(Schema::intern({"instance", "step", "event", "type", "task", "stage"})) {
  const Model& m = engine_.model();
  for (const EventType& e : m.events)
    event_names_.emplace_back(e.name);
  for (std::size_t node = 0; node < 2 * m.status_count(); ++node)
    status_changes_.emplace_back(node_name(m, static_cast<int>(node)));
}

void GsmActor::save_state(SnapshotWriter& out, ActorContext&) {
  engine_.save(out);
  // The instance ids in the order the engine numbered them; the map is rebuilt from them.
  for (const Value& id : instance_ids_)
    out.write_value(id);
  out.write_u64(step_);
}

void GsmActor::restore_state(SnapshotReader& in, ActorContext&) {
  engine_.restore(in);
  instances_.clear();
  instance_ids_.clear();
  for (InstanceId instance = 0; instance < engine_.instance_count(); ++instance) {
    Value id = in.read_value("an instance id");
    if (!instances_.emplace(id, instance).second)
      in.reject("an instance id", "two instances have the same id");
    instance_ids_.push_back(std::move(id));
  }
  step_ = in.read_u64("the steps taken");
}

void GsmActor::fire(FiringContext& context) {
  for (const Event& event : context.window())
    process(context, event.token);
}

void GsmActor::process(FiringContext& context, const Value& token) {
  const Model& model = engine_.model();
  if (auto rejected = reader_.read(token, incoming_)) {
    context.report_error(*rejected);
    return;
  }
  const Value& id = incoming_.id;
  const int event = incoming_.event;
  auto found = instances_.find(id);
  InstanceId instance;
  if (found == instances_.end()) {
    if (auto refused = reader_.refuse_new_instance(incoming_)) {
      context.report_error(*refused);
      return;
    }
    instance = engine_.add_instance();
    instances_.emplace(id, instance);
    instance_ids_.push_back(id);
  } else {
    instance = found->second;
  }
  generated_.clear();
  engine_.step(instance, event, incoming_.updates, generated_);
  const Value step(static_cast<std::int64_t>(++step_));
  for (const Generated& g : generated_) {
    if (g.kind == Generated::Kind::status) {
      if (!options_.emit_status) continue;
      const Value slots[] = {
          id, step, event_names_[static_cast<std::size_t>(event)], Value("status"),
          status_changes_[static_cast<std::size_t>(pdg_node({g.attribute, g.value}))]};
      context.emit(Value::record(status_schema_, slots));
    } else {
      if (!options_.emit_tasks) continue;
      const Stage& stage = model.stages[static_cast<std::size_t>(g.attribute)];
      const Value slots[] = {id,
                             step,
                             event_names_[static_cast<std::size_t>(event)],
                             Value("invoke"),
                             Value(stage.task),
                             Value(stage.name)};
      context.emit(Value::record(invoke_schema_, slots));
    }
  }
}

ActorType gsm_actor_type() {
  using actors::compile_param;
  return actors::make_type(
      "gsm",
      "Runs the B-steps of a GSM business-artifact model (docs/gsm.md): one incoming event per "
      "record, many instances keyed by id; emits status changes and task invocations.",
      {{"model", ParamType::string, std::nullopt,
        "the model file (YAML, docs/gsm.md); relative to the workflow file"},
       {"instance", ParamType::expression, Value("/instance"),
        "the instance id of an incoming record (a string or a number)"},
       {"event", ParamType::expression, Value("/type"),
        "the event type of an incoming record, e.g. R:NewOrder"},
       {"data", ParamType::expression, Value("/data"),
        "the data the event carries: a record of data attributes, or null"},
       {"emit", ParamType::string, Value("all"),
        "what to emit: all, status (status changes) or tasks (task invocations)"},
       {"keep_vacuous", ParamType::boolean, Value(false),
        "keep the vacuous reopening rules (they never fire; see docs/gsm.md)"}},
      GsmActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        const std::string path = params.path("model");
        std::shared_ptr<const CompiledModel> model;
        try {
          model = CompiledModel::load(path, {.keep_vacuous = params.get_bool("keep_vacuous")});
        } catch (const LoadError& e) {
          throw ParamError("model", std::string("in the model: ") + e.what());
        }
        GsmActorOptions options;
        options.instance = compile_param(params, "instance");
        options.event = compile_param(params, "event");
        options.data = compile_param(params, "data");
        const std::string emit = params.get_string("emit");
        if (emit != "all" && emit != "status" && emit != "tasks")
          throw ParamError("emit", "expected all, status or tasks for 'emit', got '" + emit + "'");
        options.emit_status = emit != "tasks";
        options.emit_tasks = emit != "status";
        return std::make_unique<GsmActor>(std::move(model), std::move(options));
      });
}

}  // namespace cwf::gsm
