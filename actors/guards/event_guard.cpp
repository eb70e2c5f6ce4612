#include "actors/guards/event_guard.hpp"

#include <stdexcept>

namespace cwf::guards {

namespace {

std::string field_text(const Value& token, std::string_view name) {
  const Value* value = token.field(name);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

// The attempt's binding of the parameters `schema` names as a record (null when there are
// none); throws std::invalid_argument naming a missing field.
Value binding_of(const Value& token, const Schema* schema) {
  if (!schema) return Value();
  std::vector<Value> slots;
  for (const std::string& name : schema->fields()) {
    const Value* value = token.field(name);
    if (!value) throw std::invalid_argument("no field '" + name + "' for the event's parameter");
    slots.push_back(*value);
  }
  return Value::record(schema, std::move(slots));
}

const Schema* outcome_schema(const std::vector<std::string>& parameters) {
  std::vector<std::string> fields{"event"};
  fields.insert(fields.end(), parameters.begin(), parameters.end());
  fields.push_back("outcome");
  return Schema::intern(fields);
}

}  // namespace

EventGuard::EventGuard(const DependencySet& workflow, const std::string& event_type)
    : event_type_(event_type),
      base_(base_name(event_type)),
      parameters_(parameters_of(event_type)),
      attributes_(workflow.attributes_of(event_type)),
      positive_(workflow.guard(Literal{event_type, false})),
      negative_(workflow.guard(Literal{event_type, true})),
      binding_schema_(parameters_.empty() ? nullptr : Schema::intern(parameters_)),
      outcome_schema_(outcome_schema(parameters_)) {
  for (const std::string& other : workflow.events)
    if (other != event_type && workflow.attributes_of(other).triggerable &&
        (positive_.mentions(other) || negative_.mentions(other)))
      triggerable_.push_back(other);
  attempts_port_ = add_input("attempts", "attempts of the event: {event: NAME or ~NAME, params…}");
  messages_port_ = add_input("messages", "announcements, promises and trigger requests");
  outcomes_out_ = add_output("outcomes", "{event, params…, outcome}: what became of the event");
  messages_out_ = add_output("messages", "to the actors of the events whose guards mention it");
}

EventGuard::Instance& EventGuard::instance(const Value& binding) {
  auto [it, inserted] = instances_.try_emplace(binding);
  if (inserted) {
    it->second.positive = positive_;
    it->second.negative = negative_;
    it->second.binding = binding;
  }
  return it->second;
}

void EventGuard::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    try {
      if (context.port() == attempts_port_) {
        Literal attempted = parse_literal(field_text(event.token, "event"));
        if (attempted.event != base_)
          throw std::invalid_argument("an attempt of '" + attempted.event +
                                      "' reached the actor of '" + base_ + "'");
        attempt(context, binding_of(event.token, binding_schema_), attempted.complement);
      } else {
        on_message(context, event.token);
      }
    } catch (const std::exception& e) {
      context.report_error(e.what());
    }
  }
}

void EventGuard::attempt(FiringContext& context, const Value& binding, bool complement) {
  // An instance takes one attempt: a later one, while the first is parked or once the event
  // is decided, is a duplicate (the same literal) or refused (the other). It must not replace
  // a parked attempt (which would then never get an outcome), ask for help again, or start a
  // decided instance over. Which literal came first: ~x (true) or x (false).
  std::optional<bool> first;
  if (auto decided = decided_.find(binding); decided != decided_.end()) {
    first = decided->second;
  } else if (auto undecided = instances_.find(binding); undecided != instances_.end()) {
    first = undecided->second.parked;
  }
  if (first) {
    emit_outcome(context, binding, complement, *first == complement ? "duplicate" : "refused");
    return;
  }
  Instance& inst = instance(binding);
  // The scheduler has no choice with a non-rejectable event: it happens when attempted.
  if (!complement && !attributes_.rejectable) {
    happen(context, inst, false, "accepted");
    return;
  }
  decide(context, inst, complement, true);
}

void EventGuard::decide(FiringContext& context, Instance& instance, bool complement,
                        bool first_time) {
  Guard& g = guard(instance, complement);
  if (g.holds_now()) {
    happen(context, instance, complement, first_time ? "accepted" : "released");
    return;
  }
  if (g.is_zero() && !complement && attributes_.rejectable &&
      guard(instance, true).holds_now()) {  // rejecting x makes ~x happen
    happen(context, instance, true, "rejected");
    return;
  }
  if (first_time) {
    instance.parked = complement;
    emit_outcome(context, instance.binding, complement, "parked");
  }
  // Also on a retry: announcements may have reduced the guard to one that a trigger or a
  // single promise now satisfies (□g ∧ ◇f becomes ◇f once g happened).
  ask_for_help(context, instance, complement);
}

void EventGuard::ask_for_help(FiringContext& context, Instance& instance, bool complement) {
  const Guard& g = guard(instance, complement);
  for (const std::string& other : triggerable_)
    if (g.mentions(other)) request(context, instance, "trigger", Literal{other, false}, "");
  // Conditional promises: to each event whose happening alone would make this guard T (the
  // attempt then proceeds), or, for a rejectable event, 0 (the attempt is then rejected, so
  // the complement happens).
  bool can_reject = !complement && attributes_.rejectable;
  for (const std::string& other : g.events()) {
    for (bool other_complement : {false, true}) {
      Guard after = g;
      Literal condition{other, other_complement};
      after.announce_happened(condition);
      if (after.is_top()) {
        request(context, instance, "promised", literal(complement), condition.text());
      } else if (after.is_zero() && can_reject) {
        Guard complement_after = guard(instance, true);
        complement_after.announce_happened(condition);
        if (complement_after.is_top())
          request(context, instance, "promised", literal(true), condition.text());
      }
    }
  }
}

void EventGuard::request(FiringContext& context, Instance& instance, const char* kind,
                         const Literal& subject, const std::string& for_literal) {
  if (!instance.requested.insert(std::string(kind) + " " + subject.text() + " " + for_literal)
           .second)
    return;
  send(context, kind, subject, for_literal, instance.binding);
}

void EventGuard::on_message(FiringContext& context, const Value& message) {
  std::string kind = field_text(message, "kind");
  Literal subject = parse_literal(field_text(message, "literal"));
  const Value* binding_field = message.field("binding");
  Value binding = binding_field ? *binding_field : Value();
  if (decided_.contains(binding)) return;  // nothing left to decide
  if (kind == "trigger") {
    if (subject.event != event_type_ || !attributes_.triggerable) return;
    Instance& inst = instance(binding);
    if (inst.positive.holds_now()) {
      happen(context, inst, false, "triggered");
    } else {
      inst.trigger_wanted = true;
    }
    return;
  }
  if (!positive_.mentions(subject.event) && !negative_.mentions(subject.event)) return;
  Instance& inst = instance(binding);
  if (kind == "happened") {
    inst.positive.announce_happened(subject);
    inst.negative.announce_happened(subject);
  } else if (kind == "promised") {
    Literal condition = parse_literal(field_text(message, "for"));
    if (condition.event != event_type_) return;
    guard(inst, condition.complement).announce_promised(subject);
  } else {
    throw std::invalid_argument("unknown message kind '" + kind + "'");
  }
  retry(context, inst);
}

void EventGuard::retry(FiringContext& context, Instance& instance) {
  if (instance.parked) {
    decide(context, instance, *instance.parked, false);
  } else if (instance.trigger_wanted && instance.positive.holds_now()) {
    happen(context, instance, false, "triggered");
  }
}

void EventGuard::happen(FiringContext& context, Instance& instance, bool complement,
                        const char* how) {
  emit_outcome(context, instance.binding, complement, how);
  send(context, "happened", literal(complement), "", instance.binding);
  // The instance is decided: its guards can no longer change anything. `instance` dangles
  // from here on, so every caller returns right after.
  Value key = instance.binding;
  decided_[key] = complement;
  instances_.erase(key);
}

void EventGuard::emit_outcome(FiringContext& context, const Value& binding, bool complement,
                              const char* how) {
  std::vector<Value> slots{Value((complement ? "~" : "") + base_)};
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    slots.push_back(binding.slots()[i]);
  slots.push_back(Value(std::string(how)));
  context.emit(outcomes_out_, Value::record(outcome_schema_, std::move(slots)));
}

void EventGuard::send(FiringContext& context, const char* kind, const Literal& subject,
                      const std::string& for_literal, const Value& binding) {
  static const Schema* const schema = Schema::intern({"kind", "literal", "for", "binding"});
  context.emit(
      messages_out_,
      Value::record(schema, {Value(std::string(kind)), Value(subject.text()),
                             for_literal.empty() ? Value() : Value(for_literal), binding}));
}

}  // namespace cwf::guards
