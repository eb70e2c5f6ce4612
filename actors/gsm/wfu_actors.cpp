#include "actors/gsm/wfu_actors.hpp"

#include <array>
#include <charconv>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "actors/gsm/wfu_messages.hpp"
#include "actors/gsm/wfu_ready_order.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::gsm {

std::int64_t WfuInstanceNames::number(const Value& id) {
  std::lock_guard lock(mutex_);
  auto [it, added] = numbers_.try_emplace(id, static_cast<std::int64_t>(ids_.size()));
  if (added) ids_.push_back(id);
  return it->second;
}

bool WfuInstanceNames::contains(const Value& id) const {
  std::lock_guard lock(mutex_);
  return numbers_.contains(id);
}

Value WfuInstanceNames::id(std::int64_t number) const {
  std::lock_guard lock(mutex_);
  return ids_.at(static_cast<std::size_t>(number));
}

void WfuInstanceNames::save(SnapshotWriter& out) const {
  std::lock_guard lock(mutex_);
  out.write_u64(ids_.size());
  for (const Value& id : ids_)
    out.write_value(id);
}

void WfuInstanceNames::restore(SnapshotReader& in) {
  std::vector<Value> ids(in.read_count("the instance ids"));
  for (Value& id : ids)
    id = in.read_value("an instance id");
  std::lock_guard lock(mutex_);
  numbers_.clear();
  ids_.clear();
  for (Value& id : ids) {
    if (!numbers_.try_emplace(id, static_cast<std::int64_t>(ids_.size())).second)
      in.reject("the instance ids", "instance " + id.to_json() + " is numbered twice");
    ids_.push_back(std::move(id));
  }
}

void WfuSourceActor::save_state(SnapshotWriter& out, ActorContext&) {
  source_.save(out);
}

void WfuSourceActor::restore_state(SnapshotReader& in, ActorContext&) {
  source_.restore(in);
}

void WfuUnitActor::save_state(SnapshotWriter& out, ActorContext&) {
  unit_->save(out);
}

void WfuUnitActor::restore_state(SnapshotReader& in, ActorContext&) {
  unit_->restore(in);
}

void GsmPubsubActor::save_state(SnapshotWriter& out, ActorContext& context) {
  names_->save(out);
  CompositeActor::save_state(out, context);
}

void GsmPubsubActor::restore_state(SnapshotReader& in, ActorContext& context) {
  names_->restore(in);
  CompositeActor::restore_state(in, context);
}

WfuSourceActor::WfuSourceActor(std::shared_ptr<const WfuPlan> plan,
                               std::shared_ptr<WfuInstanceNames> names)
    : plan_(std::move(plan)),
      names_(std::move(names)),
      reader_(plan_->compiled_ptr()),
      source_(plan_) {
  add_input("in", "{instance, type, data}");
  add_output("publish", "event and datum publications");
}

void WfuSourceActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    // GsmPubsubActor::fire let in only records that read as valid events, and only events that
    // may create the instances they name.
    if (auto rejected = reader_.read(event.token, incoming_)) {
      context.report_error(*rejected);
      continue;
    }
    published_.clear();
    source_.submit(names_->number(incoming_.id), incoming_.event, incoming_.updates, published_);
    for (Value& p : published_)
      context.emit(0, std::move(p));
  }
}

WfuBusActor::WfuBusActor(std::shared_ptr<const WfuPlan> plan) {
  add_input("publish", "every unit's publications");
  const auto& specs = plan->units();
  port_of_unit_.assign(specs.size(), -1);
  for (std::size_t unit = 0; unit < specs.size(); ++unit) {
    const std::string client = std::to_string(unit);
    for (std::size_t i = 0; i < specs[unit].advertisements.size(); ++i)
      broker_.advertise({client, std::to_string(i)}, specs[unit].advertisements[i], out_);
    for (std::size_t i = 0; i < specs[unit].subscriptions.size(); ++i)
      broker_.subscribe({client, std::to_string(i)}, specs[unit].subscriptions[i], out_);
    if (specs[unit].kind != WfuKind::source)
      port_of_unit_[unit] = add_output(port_name(static_cast<int>(unit)), specs[unit].name);
  }
  out_.clear();
}

void WfuBusActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    out_.clear();
    if (!broker_.publish(event.token, out_)) {
      context.report_error("a publication no unit advertised: " + event.token.to_json());
      continue;
    }
    for (pubsub::Delivery& delivery : out_.deliveries) {
      int unit = -1;
      std::from_chars(delivery.subscriber.data(),
                      delivery.subscriber.data() + delivery.subscriber.size(), unit);
      context.emit(port_of_unit_[static_cast<std::size_t>(unit)], std::move(delivery.publication));
    }
  }
}

WfuUnitActor::WfuUnitActor(std::shared_ptr<const WfuPlan> plan, int unit,
                           std::shared_ptr<WfuInstanceNames> names)
    : plan_(std::move(plan)), unit_(make_wfu_unit(plan_, unit)), names_(std::move(names)) {
  add_input("in", "the publications the unit subscribed to");
  publish_ = add_output("publish", "the unit's publications");
  if (plan_->units()[static_cast<std::size_t>(unit)].kind == WfuKind::sink) {
    sink_ = static_cast<WfuSink*>(unit_.get());
    steps_ = add_output("steps", "completed B-steps");
    // What every completed step's record needs, made once rather than per step.
    step_schema_ = Schema::intern({"t", "instance", "event", "values"});
    const Model& model = plan_->compiled().model();
    for (const WfuUnitSpec& spec : plan_->units())
      attribute_names_.push_back(spec.kind == WfuKind::gateway ? model.status_name(spec.attribute)
                                 : spec.kind == WfuKind::data  ? spec.name.substr(5)  // "data:"
                                                               : std::string());
    for (const EventType& event : model.events)
      event_names_.emplace_back(event.name);
  }
}

void WfuUnitActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    published_.clear();
    unit_->receive(event.token, published_);
    for (Value& p : published_)
      context.emit(publish_, std::move(p));
  }
  if (sink_ == nullptr) return;
  for (const StepCompletion& c : sink_->completions()) {
    // The values arrive in any order, so their schema is interned per step.
    std::vector<std::string> names;
    std::vector<Value> values;
    for (const auto& [unit, value] : c.values) {
      names.push_back(attribute_names_[static_cast<std::size_t>(unit)]);
      values.push_back(value);
    }
    const std::array<Value, 4> step{Value(c.time), names_->id(c.instance),
                                    event_names_[static_cast<std::size_t>(c.event)],
                                    Value::record(Schema::intern(names), std::move(values))};
    context.emit(steps_, Value::record(step_schema_, step));
  }
  sink_->completions().clear();
}

namespace {

// The inner workflow: boundary `events` -> source -> bus <-> units; sinks -> boundary `steps`.
std::unique_ptr<Workflow> wfu_workflow(std::shared_ptr<const WfuPlan> plan,
                                       std::shared_ptr<WfuInstanceNames> names) {
  auto inner = std::make_unique<Workflow>("gsm_pubsub");
  inner->emplace<BoundaryInput>("events");
  inner->emplace<BoundaryOutput>("steps");
  inner->add("source", std::make_unique<WfuSourceActor>(plan, names), "wfu_source");
  inner->add("bus", std::make_unique<WfuBusActor>(plan), "wfu_bus");
  inner->connect("events", "out", "source", "in");
  inner->connect("source", "publish", "bus", "publish");
  const auto& specs = plan->units();
  for (std::size_t unit = 1; unit < specs.size(); ++unit) {
    const std::string name = "unit_" + std::to_string(unit);
    inner->add(name, std::make_unique<WfuUnitActor>(plan, static_cast<int>(unit), names),
               "wfu_unit");
    inner->connect("bus", WfuBusActor::port_name(static_cast<int>(unit)), name, "in");
    if (specs[unit].kind != WfuKind::sink) inner->connect(name, "publish", "bus", "publish");
    if (specs[unit].kind == WfuKind::sink) inner->connect(name, "steps", "steps", "in");
  }
  return inner;
}

}  // namespace

GsmPubsubActor::GsmPubsubActor(std::shared_ptr<const WfuPlan> plan, unsigned workers)
    : GsmPubsubActor(std::move(plan), workers, std::make_shared<WfuInstanceNames>()) {}

GsmPubsubActor::GsmPubsubActor(std::shared_ptr<const WfuPlan> plan, unsigned workers,
                               std::shared_ptr<WfuInstanceNames> names)
    : CompositeActor(
          wfu_workflow(plan, names), kPorts,
          std::make_unique<ScheduledDirector>(std::make_unique<WfuReadyOrder>(), workers)),
      names_(std::move(names)),
      reader_(plan->compiled_ptr()) {}

void GsmPubsubActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    if (auto rejected = reader_.read(event.token, incoming_)) {
      context.report_error(*rejected);
      continue;
    }
    if (!names_->contains(incoming_.id)) {
      if (auto refused = reader_.refuse_new_instance(incoming_)) {
        context.report_error(*refused);
        continue;
      }
      // Numbered now, so that the next record of this id finds it before the source has run.
      names_->number(incoming_.id);
    }
    enter(0, event);
  }
  run_and_emit(context);
}

std::unique_ptr<Actor> make_gsm_pubsub(std::shared_ptr<const WfuPlan> plan, unsigned workers) {
  return std::make_unique<GsmPubsubActor>(std::move(plan), workers);
}

ActorType gsm_pubsub_type() {
  return actors::make_type(
      "gsm_pubsub",
      "Runs a GSM model as workflow units over content-based publish/subscribe (docs/gsm.md, "
      "GSM over publish/subscribe): one actor per unit in a sub-workflow under the scheduled "
      "director; each completed B-step leaves with the values of the attributes it touched. "
      "Records are checked as by gsm: the same ones are rejected, with the same messages.",
      {{"model", ParamType::string, std::nullopt,
        "the model file (YAML, docs/gsm.md); relative to the workflow file"},
       {"mapping", ParamType::string, Value("cam"),
        "blm (every unit in every step) or cam (only the event's ePDG)"},
       {"workers", ParamType::integer, Value(2), "worker threads of the inner director"}},
      GsmPubsubActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        const std::string path = params.path("model");
        std::shared_ptr<const CompiledModel> model;
        try {
          model = CompiledModel::load(path);
        } catch (const LoadError& e) {
          throw ParamError("model", std::string("in the model: ") + e.what());
        }
        WfuMapping mapping;
        try {
          mapping = parse_wfu_mapping(params.get_string("mapping"));
        } catch (const std::invalid_argument& e) {
          throw ParamError("mapping", e.what());
        }
        const std::int64_t workers = params.get_int("workers");
        if (workers < 1 || workers > 64) throw ParamError("workers", "expected 1 to 64 workers");
        return make_gsm_pubsub(WfuPlan::build(model, mapping), static_cast<unsigned>(workers));
      });
}

}  // namespace cwf::gsm
