#include "actors/guards/guard_dispatch.hpp"

namespace cwf::guards {

GuardDispatch::GuardDispatch(const std::vector<std::string>& events) {
  add_input("in", "attempts {event: NAME or ~NAME, params…}");
  for (const std::string& event : events)
    outputs_[event] = add_output(event);
}

void GuardDispatch::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    const Value* name = event.token.field("event");
    if (!name || !name->is_string()) {
      context.report_error("an attempt needs an 'event' field naming the event: " +
                           event.token.to_json());
      continue;
    }
    std::string_view text = name->as_string();
    if (!text.empty() && text[0] == '~') text.remove_prefix(1);
    auto it = outputs_.find(text);
    if (it == outputs_.end()) {
      context.report_error("an attempt of '" + std::string(text) +
                           "', which no dependency mentions and no events: entry lists");
      continue;
    }
    context.emit(it->second, event.token);
  }
}

}  // namespace cwf::guards
