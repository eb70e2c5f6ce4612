#include "actors/gsm/incoming_event.hpp"

#include <algorithm>

#include "runtime/expressions/expr_error.hpp"

namespace cwf::gsm {

IncomingEventReader::IncomingEventReader(std::shared_ptr<const CompiledModel> model,
                                         Expression instance, Expression event, Expression data)
    : model_(std::move(model)),
      instance_(std::move(instance)),
      event_(std::move(event)),
      data_(std::move(data)) {}

IncomingEventReader::IncomingEventReader(std::shared_ptr<const CompiledModel> model)
    : IncomingEventReader(std::move(model), Expression::compile("/instance"),
                          Expression::compile("/type"), Expression::compile("/data")) {}

std::optional<std::string> IncomingEventReader::read(const Value& record,
                                                     IncomingEvent& out) const {
  const Model& model = model_->model();
  Value type, data;
  try {
    out.id = instance_.evaluate(record);
    type = event_.evaluate(record);
    data = data_.evaluate(record);
  } catch (const ExprError& e) {
    return std::string("gsm: ") + e.what();
  }
  if (out.id.is_null() || out.id.is_array() || out.id.is_record())
    return "gsm: expected an instance id (a string or a number), got " + out.id.to_json();
  const std::optional<int> event =
      type.is_string() ? model.find_event(type.as_string()) : std::nullopt;
  if (!event) return "gsm: unknown event type " + type.to_json() + " for model " + model.name;
  out.event = *event;
  const EventType& event_type = model.events[static_cast<std::size_t>(*event)];
  out.updates.clear();
  if (data.is_null()) return std::nullopt;
  if (!data.is_record())
    return "gsm: expected the data of a " + event_type.name + " event to be a record, got " +
           data.to_json();
  const auto fields = data.schema()->fields();
  const auto slots = data.slots();
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::optional<int> attribute = model.find_data(fields[f]);
    if (!attribute)
      return "gsm: " + event_type.name + " event carries '" + fields[f] +
             "', which is not a data attribute of " + model.name;
    const DataAttribute& a = model.data[static_cast<std::size_t>(*attribute)];
    if (!event_type.updates_all && std::find(event_type.updates.begin(), event_type.updates.end(),
                                             *attribute) == event_type.updates.end())
      return "gsm: " + event_type.name + " events do not update '" + a.name +
             "' (see its 'updates' in the model)";
    if (!fits(a.type, slots[f]))
      return "gsm: expected " + std::string(data_type_name(a.type)) + " for '" + a.name +
             "', got " + slots[f].to_json();
    out.updates.emplace_back(*attribute, slots[f]);
  }
  return std::nullopt;
}

std::optional<std::string> IncomingEventReader::refuse_new_instance(
    const IncomingEvent& event) const {
  // A request such as R:NewOrder creates an instance ("Request events ... e.g., a user request to
  // create a new artifact instance", 000 §3.1, line 516; for Design-to-order "Upon a customer
  // order, i.e., an external request event of type R:NewOrder, a new workflow is instantiated",
  // 000 §4.1.2, line 693, and 003 §3.2, lines 613-615). A model says which events create one
  // with `creates:`; when none does, any event may.
  const Model& model = model_->model();
  if (model.may_create(event.event)) return std::nullopt;
  return "gsm: no instance " + event.id.to_json() + " and " +
         model.events[static_cast<std::size_t>(event.event)].name + " does not create one";
}

}  // namespace cwf::gsm
